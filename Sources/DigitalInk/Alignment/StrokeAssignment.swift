import Foundation

/// From a candidate's CTC path to its ``InkSegmentation``. Internal.
///
/// 1. A frame that emits a character (not a space; for a model whose labels are Hangul jamo, any jamo
///    of a syllable) belongs to it. The network's output frames map to
///    input frames by the time reduction (`reduction` input frames each), input frames to strokes and
///    points by the resampling (``FeatureExtractor/FrameOrigin``).
/// 2. A stroke with emitting frames is *anchored*. Its frames before its first emission belong to the
///    first character emitted in it, those after its last emission to the last (the network emits a
///    letter early, mostly in the first quarter of its stroke: measured on composed words of tuning
///    writers); between the emissions of two characters `a` and `b` the frames are split where the
///    network's evidence turns from `a` to `b`: at the split `s` that maximizes
///    `Σ_{f ≤ s} (lp_f(a) − lp_f(b))` (the CTC spikes themselves say little about where a cursive
///    letter ends); between two emissions of the same letter ("ll") at the midpoint. Runs of frames
///    become point ranges.
/// 3. A stroke without one (an i-dot, a t-bar or an accent written late, which the network reads as
///    blanks) goes whole to the character whose anchored points lie nearest to it horizontally,
///    where a letter written with such a mark (i, j, t, f, x, capitals with bars, letters with
///    diacritics) counts as half a character height nearer.
enum _StrokeAssignment {
    /// - Parameters:
    ///   - characters: the candidate's text.
    ///   - path: per output frame, the index of the aligned label it emits (or -1), as
    ///     ``CTCForcedAlignment/align(_:logProbs:blank:)`` gives it.
    ///   - owners: the position in `characters` of each aligned label: `i + 1` for label `i` when a
    ///     leading space, which costs no frames, was left out of the alignment; a Hangul syllable of a
    ///     jamo model owns its 2 or 3 labels, so that its segment covers the ink of all its jamo.
    ///   - labels: the aligned labels' classes; `logProbs` the network's output.
    ///   - runs: the input frames of each stroke (``strokeRuns(_:)``, the same for every candidate).
    static func segmentation(characters: [Character], labels: [Int], owners: [Int], path: [Int], reduction: Int,
                             logProbs: FeatureMatrix, origins: [FeatureExtractor.FrameOrigin], runs: [(stroke: Int, frames: Range<Int>)],
                             ink: Ink) -> InkSegmentation {
        let L = characters.count
        var spans = [[StrokeSpan]](repeating: [], count: L)
        let isSpace = characters.map { $0 == " " || (!$0.isASCII && $0.isWhitespace) }
        func outputFrame(_ f: Int) -> Int { min(f / max(1, reduction), path.count - 1) }
        // The aligned label each input frame emits, and its character (-1: none, or a space).
        var emittedLabel = [Int](repeating: -1, count: origins.count)
        let emitted: [Int] = origins.indices.map { f in
            let t = outputFrame(f)
            guard t >= 0, path[t] >= 0, path[t] < owners.count else { return -1 }
            let c = owners[path[t]]
            guard c < L, !isSpace[c] else { return -1 }
            emittedLabel[f] = path[t]
            return c
        }
        /// For frames lo..<hi between the emissions of aligned labels j1 and j2 (of two characters): the
        /// last frame that belongs to j1's character (lo - 1 for none), where Σ_{f ≤ split} (lp_f(j1) −
        /// lp_f(j2)) is largest. For the same letter twice no evidence tells them apart, and the split
        /// is `sameLetter`.
        func split(_ lo: Int, _ hi: Int, _ j1: Int, _ j2: Int, sameLetter: Int) -> Int {
            let l1 = labels[j1], l2 = labels[j2]
            guard l1 != l2 else { return sameLetter }
            var sum: Float = 0, best: Float = 0, at = lo - 1
            for f in lo..<hi {
                let row = outputFrame(f) * logProbs.columns
                sum += logProbs.values[row + l1] - logProbs.values[row + l2]
                if sum > best { best = sum; at = f }
            }
            return at
        }
        var unanchored: [Int] = []
        var emissions: [Int] = []
        var owner: [Int] = []
        for (stroke, frames) in runs {
            let a = frames.lowerBound, b = frames.upperBound
            emissions.removeAll(keepingCapacity: true)
            for f in a..<b where emitted[f] >= 0 { emissions.append(f) }
            if emissions.isEmpty {
                unanchored.append(Int(stroke))
            } else {
                // The owner of each frame (indices relative to `a`).
                owner.removeAll(keepingCapacity: true)
                owner.append(contentsOf: repeatElement(emitted[emissions[0]], count: b - a))
                for k in 0..<emissions.count {
                    let e = emissions[k], c = emitted[e]
                    let end = k + 1 < emissions.count ? emissions[k + 1] : b
                    let next = k + 1 < emissions.count ? emitted[end] : c
                    owner[e - a] = c
                    guard next != c else {
                        for f in (e + 1)..<end { owner[f - a] = c }
                        continue
                    }
                    let cut = split(e + 1, end, emittedLabel[e], emittedLabel[end], sameLetter: (e + end) / 2)
                    for f in (e + 1)..<end { owner[f - a] = f <= cut ? c : next }
                }
                let pointCount = ink.strokes[Int(stroke)].points.count
                var start = 0, runOwner = owner[0]
                for i in 1..<(b - a) + 1 {
                    if i == b - a || owner[i] != runOwner {
                        let end = i == b - a ? pointCount : Int(origins[a + i].point)
                        if end > start { spans[runOwner].append(StrokeSpan(stroke: Int(stroke), points: start..<end)) }
                        if i < b - a { start = max(start, end); runOwner = owner[i] }
                    }
                }
            }
        }
        // Strokes read as no character: to the horizontally nearest character with anchored points.
        var boxes = spans.map { BoundingBox(spans: $0, of: ink) }
        if !unanchored.isEmpty {
            let heights = boxes.compactMap { $0?.height }.sorted()
            let tolerance = heights.isEmpty ? 0 : heights[heights.count / 2] / 2
            let bonus = characters.map { takesLateMark($0) ? tolerance : 0 }
            let ranges = boxes.map { $0.map { (lo: $0.x, hi: $0.x + $0.width) } }
            for stroke in unanchored {
                let points = ink.strokes[stroke].points
                guard let lo = points.map(\.x).min(), let hi = points.map(\.x).max() else { continue }
                let centre = (lo + hi) / 2
                var best = -1, bestKey = (Float.infinity, Float.infinity)
                for (c, r) in ranges.enumerated() {
                    guard let r else { continue }
                    let gap = max(0, r.lo - centre, centre - r.hi) - bonus[c]
                    let key = (gap, abs((r.lo + r.hi) / 2 - centre))
                    if key < bestKey { bestKey = key; best = c }
                }
                if best >= 0 {
                    spans[best].append(StrokeSpan(stroke: stroke, points: 0..<points.count))
                    boxes[best] = BoundingBox(spans: spans[best], of: ink)
                }
            }
        }
        let characterSegments = (0..<L).map { c in
            let s = spans[c].count < 2 ? spans[c] : spans[c].sorted { ($0.stroke, $0.points.lowerBound) < ($1.stroke, $1.points.lowerBound) }
            return CharacterSegment(text: String(characters[c]), strokes: s, boundingBox: boxes[c])
        }
        return InkSegmentation(characters: characterSegments, words: words(characterSegments, isSpace: isSpace))
    }

    /// The input frames of each stroke, in order (frames of one stroke are contiguous).
    static func strokeRuns(_ origins: [FeatureExtractor.FrameOrigin]) -> [(stroke: Int, frames: Range<Int>)] {
        var runs: [(stroke: Int, frames: Range<Int>)] = []
        var a = 0
        while a < origins.count {
            var b = a
            while b < origins.count, origins[b].stroke == origins[a].stroke { b += 1 }
            runs.append((Int(origins[a].stroke), a..<b))
            a = b
        }
        return runs
    }

    static let lateMarkLetters: Set<Character> = Set("ijtfxAEFHTłøđŁØĐħ")

    /// Whether writers add a stroke to `c` after writing it: dots, bars, slashes, diacritics.
    static func takesLateMark(_ c: Character) -> Bool {
        if lateMarkLetters.contains(c) { return true }
        if c.isASCII { return false }
        // A letter with a diacritic: its canonical decomposition has a combining mark.
        let scalars = String(c).decomposedStringWithCanonicalMapping.unicodeScalars
        return scalars.count > 1 && scalars.dropFirst().contains { $0.properties.generalCategory == .nonspacingMark }
    }

    /// The runs of characters between spaces, with their spans merged per stroke.
    static func words(_ characters: [CharacterSegment], isSpace: [Bool]) -> [WordSegment] {
        var words: [WordSegment] = []
        var i = 0
        while i < characters.count {
            guard !isSpace[i] else { i += 1; continue }
            var j = i
            while j < characters.count, !isSpace[j] { j += 1 }
            let spans = characters[i..<j].flatMap(\.strokes).sorted { ($0.stroke, $0.points.lowerBound) < ($1.stroke, $1.points.lowerBound) }
            var merged: [StrokeSpan] = []
            for span in spans {
                if let last = merged.last, last.stroke == span.stroke {
                    merged[merged.count - 1].points = last.points.lowerBound..<max(last.points.upperBound, span.points.upperBound)
                } else {
                    merged.append(span)
                }
            }
            // The word's box is the union of its characters' boxes (the same points).
            let box = characters[i..<j].compactMap(\.boundingBox).reduce(nil as BoundingBox?) { u, b in
                guard let u else { return b }
                let x0 = min(u.x, b.x), y0 = min(u.y, b.y)
                return BoundingBox(x: x0, y: y0, width: max(u.x + u.width, b.x + b.width) - x0, height: max(u.y + u.height, b.y + b.height) - y0)
            }
            words.append(WordSegment(text: characters[i..<j].map(\.text).joined(), characters: i..<j, strokes: merged, boundingBox: box))
            i = j
        }
        return words
    }
}
