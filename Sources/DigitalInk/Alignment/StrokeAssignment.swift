import Foundation

/// From a candidate's CTC path to its ``InkSegmentation``. Internal.
///
/// 1. A frame that emits a character (not a space) belongs to it. The network's output frames map to
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
    ///   - offset: the position in `characters` of aligned label 0 (1 when a leading space, which
    ///     costs no frames, was left out of the alignment).
    ///   - labels: the aligned labels' classes; `logProbs` the network's output.
    static func segmentation(characters: [Character], labels: [Int], path: [Int], offset: Int, reduction: Int,
                             logProbs: FeatureMatrix, origins: [FeatureExtractor.FrameOrigin], ink: Ink) -> InkSegmentation {
        let L = characters.count
        var spans = [[StrokeSpan]](repeating: [], count: L)
        // The character each input frame emits (-1: none, or a space).
        func outputFrame(_ f: Int) -> Int { min(f / max(1, reduction), path.count - 1) }
        let emitted: [Int] = origins.indices.map { f in
            let t = outputFrame(f)
            guard t >= 0, path[t] >= 0 else { return -1 }
            let c = path[t] + offset
            return c < L && !characters[c].isWhitespace ? c : -1
        }
        /// For frames lo..<hi between characters c1 and c2: the last frame that belongs to c1 (lo - 1 for
        /// none), where Σ_{f ≤ split} (lp_f(c1) − lp_f(c2)) is largest; the midpoint for the same letter.
        /// For the same letter twice the split is `sameLetter` (no evidence tells them apart).
        func split(_ lo: Int, _ hi: Int, _ c1: Int, _ c2: Int, sameLetter: Int) -> Int {
            let l1 = labels[c1 - offset], l2 = labels[c2 - offset]
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
        var a = 0
        while a < origins.count {
            let stroke = origins[a].stroke
            var b = a
            while b < origins.count, origins[b].stroke == stroke { b += 1 }
            let emissions = (a..<b).filter { emitted[$0] >= 0 }
            if emissions.isEmpty {
                unanchored.append(Int(stroke))
            } else {
                // The owner of each frame (indices relative to `a`).
                var owner = [Int](repeating: emitted[emissions[0]], count: b - a)
                for k in 0..<emissions.count {
                    let e = emissions[k], c = emitted[e]
                    let end = k + 1 < emissions.count ? emissions[k + 1] : b
                    let next = k + 1 < emissions.count ? emitted[end] : c
                    owner[e - a] = c
                    guard next != c else {
                        for f in (e + 1)..<end { owner[f - a] = c }
                        continue
                    }
                    let cut = split(e + 1, end, c, next, sameLetter: (e + end) / 2)
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
            a = b
        }
        // Strokes read as no character: to the horizontally nearest character with anchored points.
        let ranges: [(lo: Float, hi: Float)?] = spans.map { s in
            BoundingBox(spans: s, of: ink).map { ($0.x, $0.x + $0.width) }
        }
        let heights = spans.compactMap { BoundingBox(spans: $0, of: ink)?.height }.sorted()
        let tolerance = heights.isEmpty ? 0 : heights[heights.count / 2] / 2
        for stroke in unanchored {
            let points = ink.strokes[stroke].points
            guard let lo = points.map(\.x).min(), let hi = points.map(\.x).max() else { continue }
            let centre = (lo + hi) / 2
            var best = -1, bestKey = (Float.infinity, Float.infinity)
            for (c, r) in ranges.enumerated() {
                guard let r else { continue }
                let bonus = takesLateMark(characters[c]) ? tolerance : 0
                let gap = max(0, r.lo - centre, centre - r.hi) - bonus
                let key = (gap, abs((r.lo + r.hi) / 2 - centre))
                if key < bestKey { bestKey = key; best = c }
            }
            if best >= 0 { spans[best].append(StrokeSpan(stroke: stroke, points: 0..<points.count)) }
        }
        let characterSegments = (0..<L).map { c in
            let s = spans[c].sorted { ($0.stroke, $0.points.lowerBound) < ($1.stroke, $1.points.lowerBound) }
            return CharacterSegment(text: String(characters[c]), strokes: s, boundingBox: BoundingBox(spans: s, of: ink))
        }
        return InkSegmentation(characters: characterSegments, words: words(characterSegments, ink: ink))
    }

    /// Whether writers add a stroke to `c` after writing it: dots, bars, slashes, diacritics.
    static func takesLateMark(_ c: Character) -> Bool {
        if "ijtfxAEFHTłøđŁØĐħ".contains(c) { return true }
        // A letter with a diacritic: its canonical decomposition has a combining mark.
        let scalars = String(c).decomposedStringWithCanonicalMapping.unicodeScalars
        return scalars.count > 1 && scalars.dropFirst().contains { $0.properties.generalCategory == .nonspacingMark }
    }

    /// The runs of characters between spaces, with their spans merged per stroke.
    static func words(_ characters: [CharacterSegment], ink: Ink) -> [WordSegment] {
        var words: [WordSegment] = []
        var i = 0
        while i < characters.count {
            guard !characters[i].text.allSatisfy(\.isWhitespace) else { i += 1; continue }
            var j = i
            while j < characters.count, !characters[j].text.allSatisfy(\.isWhitespace) { j += 1 }
            var byStroke: [Int: Range<Int>] = [:]
            for c in characters[i..<j] {
                for s in c.strokes {
                    let r = byStroke[s.stroke].map { min($0.lowerBound, s.points.lowerBound)..<max($0.upperBound, s.points.upperBound) }
                    byStroke[s.stroke] = r ?? s.points
                }
            }
            let merged = byStroke.keys.sorted().map { StrokeSpan(stroke: $0, points: byStroke[$0]!) }
            words.append(WordSegment(text: characters[i..<j].map(\.text).joined(), characters: i..<j, strokes: merged,
                                     boundingBox: BoundingBox(spans: merged, of: ink)))
            i = j
        }
        return words
    }
}
