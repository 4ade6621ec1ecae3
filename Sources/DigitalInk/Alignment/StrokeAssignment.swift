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
///    diacritics; in the Arabic script, Persian and Urdu included, the letters with dots, a hamza, a
///    madda or a bar: ``lateMarks(_:at:)``) counts as half a character height nearer. An Arabic-script
///    letter counts so only for a stroke on the side of its body where its mark is written (ب's dot
///    below, ت's above), and a dotted one only for a dot (a stroke no larger than half a character
///    height) and only until it holds as many as it has dots (ت two, ش three): writers dot in writing
///    order, so a letter whose dots are placed leaves the next dot to its neighbour.
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
            let marks = characters.indices.map { lateMarks(characters, at: $0) }
            var dots = [Int](repeating: 0, count: L)  // the dots each character holds so far
            let ranges = boxes.map { $0.map { (lo: $0.x, hi: $0.x + $0.width, middle: $0.y + $0.height / 2) } }
            for stroke in unanchored {
                let points = ink.strokes[stroke].points
                guard var lo = points.first?.x, var top = points.first?.y else { continue }
                var hi = lo, bottom = top
                for p in points {
                    lo = min(lo, p.x); hi = max(hi, p.x); top = min(top, p.y); bottom = max(bottom, p.y)
                }
                let centre = (lo + hi) / 2, middle = (top + bottom) / 2
                let isDot = max(hi - lo, bottom - top) <= tolerance
                var best = -1, bestKey = (Float.infinity, Float.infinity)
                for (c, r) in ranges.enumerated() {
                    guard let r else { continue }
                    let takes = marks[c].takes(isDot: isDot, held: dots[c], above: middle < r.middle)
                    let gap = max(0, r.lo - centre, centre - r.hi) - (takes ? tolerance : 0)
                    let key = (gap, abs((r.lo + r.hi) / 2 - centre))
                    if key < bestKey { bestKey = key; best = c }
                }
                if best >= 0 {
                    if isDot { dots[best] += 1 }
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

    /// Where an Arabic-script letter's mark is written: below its body, above it, or either (ج's dot lies
    /// inside its bowl in some forms, ظ's beside its stem, ك's mark inside it).
    enum MarkSide: Sendable { case above, below, either }

    /// The Arabic-script letters (Arabic, Persian, Urdu) written with dots, a hamza, a madda or a bar in
    /// every form, and where: ب ت ث ج خ ذ ز ش ض ظ غ ف ق ن ي ة; Persian and Urdu پ چ ژ گ (its second bar)
    /// and Urdu ٹ ڈ ڑ (a small ط); the hamza carriers أ إ آ ؤ ئ ۓ. Writers add these marks after the body
    /// of the letter, of its piece or of the whole word, so the network reads them as blanks.
    static let arabicMarkSides: [Character: MarkSide] = {
        var sides = [Character: MarkSide]()
        for c in "تثخذزشضغفقنةژگٹڈڑأآؤئۓ" { sides[c] = .above }
        for c in "بپيیإ" { sides[c] = .below }
        for c in "جچظك" { sides[c] = .either }
        return sides
    }()

    /// How many dots each dotted Arabic-script letter has (Persian and Urdu ی: ``lateMarks(_:at:)``). One
    /// stroke per dot at most: two or three dots are often one stroke.
    static let arabicDots: [Character: Int] = [
        "ب": 1, "ت": 2, "ث": 3, "ج": 1, "خ": 1, "ذ": 1, "ز": 1, "ش": 3, "ض": 1, "ظ": 1, "غ": 1, "ف": 1,
        "ق": 2, "ن": 1, "ي": 2, "ة": 2, "پ": 3, "چ": 3, "ژ": 3,
    ]

    /// Whether writers add a stroke to `c` after writing it: dots, bars, slashes, diacritics, the marks
    /// of Arabic-script letters (``arabicMarkSides``; ی and ك in some of their forms only, which
    /// ``lateMarks(_:at:)`` tells apart).
    static func takesLateMark(_ c: Character) -> Bool {
        if lateMarkLetters.contains(c) { return true }
        if c.isASCII { return false }
        if arabicMarkSides[c] != nil { return true }
        // A letter with a diacritic: its canonical decomposition has a combining mark. Known without
        // decomposing for one code point of the blocks in `markFreeBlocks`.
        if let only = c.unicodeScalars.first, c.unicodeScalars.count == 1,
           markFreeBlocks.contains(where: { $0.contains(only.value) }) {
            return decomposedWithMark.contains(only.value)
        }
        let scalars = String(c).decomposedStringWithCanonicalMapping.unicodeScalars
        return scalars.count > 1 && scalars.dropFirst().contains { $0.properties.generalCategory == .nonspacingMark }
    }

    /// Blocks (Hebrew, Arabic and its supplement, Devanagari, Bengali, Tamil, Thai, CJK ideographs,
    /// Hangul syllables) in which the only code points whose canonical decomposition holds a
    /// nonspacing mark are those of ``decomposedWithMark``: ``takesLateMark(_:)`` answers for them
    /// without Foundation's decomposition, which was a third of the alignment's time on Arabic words.
    /// `AlignmentTests` checks both sets against the decomposition, code point by code point.
    static let markFreeBlocks: [ClosedRange<UInt32>] = [
        0x0590...0x05FF, 0x0600...0x06FF, 0x0750...0x077F, 0x0900...0x097F, 0x0980...0x09FF, 0x0B80...0x0BFF,
        0x0E00...0x0E7F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
    ]

    /// The code points of ``markFreeBlocks`` that decompose with a nonspacing mark: Arabic-script letters
    /// with a hamza or madda (آ أ ؤ إ ئ ۀ ۂ ۓ), Devanagari and Bengali letters with a nukta.
    static let decomposedWithMark: Set<UInt32> = [
        0x0622, 0x0623, 0x0624, 0x0625, 0x0626, 0x06C0, 0x06C2, 0x06D3,
        0x0929, 0x0931, 0x0934, 0x0958, 0x0959, 0x095A, 0x095B, 0x095C, 0x095D, 0x095E, 0x095F,
        0x09DC, 0x09DD, 0x09DF,
    ]

    /// The strokes writers add to a letter after writing it, as the assignment weighs them.
    struct LateMarks: Equatable, Sendable {
        /// How many: 0 for none, `Int.max` for a number that varies (a diacritic, a hamza).
        var count: Int
        /// Whether only dots count (a dotted Arabic-script letter): strokes no larger than half a
        /// character height, `count` of them at most.
        var dotsOnly = false
        var side = MarkSide.either

        static let none = LateMarks(count: 0)
        static let any = LateMarks(count: Int.max)

        /// Whether the letter, holding `held` dots, takes a stroke that `isDot` and lies `above` the
        /// middle of the letter's body.
        func takes(isDot: Bool, held: Int, above: Bool) -> Bool {
            guard count > 0, !dotsOnly || (isDot && held < count) else { return false }
            switch side {
            case .either: return true
            case .above: return above
            case .below: return !above
            }
        }
    }

    /// The late strokes of `characters[i]`: ``LateMarks/any`` for a letter that ``takesLateMark(_:)``
    /// outside the Arabic script; for an Arabic-script one its side and, when dotted, its dots. Two have a
    /// mark in some forms only: Persian and Urdu ی has two dots below when joined to the next letter
    /// (initial and medial forms), and ك its small mark when it is not (isolated and final).
    static func lateMarks(_ characters: [Character], at i: Int) -> LateMarks {
        var c = characters[i]
        if c.isASCII { return lateMarkLetters.contains(c) ? .any : .none }
        var joined = joinsNext(characters, at: i)
        let scalars = c.unicodeScalars
        if scalars.count > 1, scalars.last == "\u{200C}" {
            // A zero-width non-joiner after a letter (Persian "کتاب‌ها") is part of its Character and
            // ends its joining: the letter as itself, in a form not joined to the next.
            let letter = String(String.UnicodeScalarView(scalars.dropLast()))
            if letter.count == 1 { c = Character(letter) }
            joined = false
        }
        guard let side = arabicMarkSides[c] else { return takesLateMark(c) ? .any : .none }
        switch c {
        case "ی": return joined ? LateMarks(count: 2, dotsOnly: true, side: side) : .none
        case "ك": return joined ? .none : LateMarks(count: Int.max, side: side)
        default:
            let dots = arabicDots[c]
            return LateMarks(count: dots ?? Int.max, dotsOnly: dots != nil, side: side)
        }
    }

    /// Whether the dual-joining Arabic letter `characters[i]` joins the next one: the next is an Arabic
    /// letter (or a tatweel) that joins on its right, which every one but the hamza ء does.
    static func joinsNext(_ characters: [Character], at i: Int) -> Bool {
        guard i + 1 < characters.count, let s = characters[i + 1].unicodeScalars.first, s != "\u{0621}" else { return false }
        let arabic = (0x0600...0x06FF).contains(s.value) || (0x0750...0x077F).contains(s.value)
            || (0x08A0...0x08FF).contains(s.value)
        return arabic && (s.properties.generalCategory == .otherLetter || s == "\u{0640}")
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
