import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Alignment: the strokes and points of every character and word")
struct AlignmentTests {
    static func recognizer(maxResults: Int = 5) -> DigitalInkRecognizer {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = maxResults
        return DigitalInkRecognizer(options: options)
    }

    @Test("the CTC path of a label sequence: repeated labels need a blank between them; too few frames is nil")
    func forcedAlignment() {
        // Classes 0 blank, 1 "a", 2 "b". Frames: a a blank a b.
        let rows: [[Float]] = [[0.1, 0.8, 0.1], [0.2, 0.7, 0.1], [0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]]
        let m = FeatureMatrix(rows: 5, columns: 3, values: rows.flatMap { $0.map { logf($0) } })
        #expect(CTCForcedAlignment.align([1, 1, 2], logProbs: m) == [0, 0, -1, 1, 2])
        #expect(CTCForcedAlignment.align([1, 2], logProbs: m)?.filter { $0 >= 0 }.count ?? 0 >= 2)
        #expect(CTCForcedAlignment.align([1, 1, 1], logProbs: FeatureMatrix(rows: 4, columns: 3, values: Array(rows.prefix(4).joined().map { logf($0) }))) == nil)
        #expect(CTCForcedAlignment.align([1, 2, 1, 2, 1], logProbs: m) == [0, 1, 2, 3, 4])
        #expect(CTCForcedAlignment.align([], logProbs: m) == [-1, -1, -1, -1, -1])
    }

    @Test("every candidate's characters partition the ink's points; words are the runs between spaces",
          arguments: ["hello.json", "there.json", "line.json", "argument.json", "digits.json"])
    func partition(_ name: String) async throws {
        let ink = try sample(name).ink
        let result = try await Self.recognizer().recognize(ink)
        #expect(!result.candidates.isEmpty)
        for candidate in result.candidates {
            let segments = try #require(candidate.segments, "\(name): \(candidate.text)")
            #expect(segments.characters.map(\.text).joined() == candidate.text)
            // Each point of the ink belongs to exactly one character.
            var owner = ink.strokes.map { [Int](repeating: 0, count: $0.points.count) }
            for c in segments.characters {
                if c.text == " " { #expect(c.strokes.isEmpty) }
                for span in c.strokes {
                    #expect(!span.points.isEmpty && span.points.upperBound <= ink.strokes[span.stroke].points.count)
                    for p in span.points { owner[span.stroke][p] += 1 }
                }
                if let box = c.boundingBox {
                    let pts = c.strokes.flatMap { ink.strokes[$0.stroke].points[$0.points] }
                    #expect(pts.allSatisfy { $0.x >= box.x && $0.x <= box.x + box.width && $0.y >= box.y && $0.y <= box.y + box.height })
                }
            }
            let counts = owner.flatMap { $0 }
            #expect(counts.allSatisfy { $0 == 1 }, "\(name) \(candidate.text.debugDescription): \(counts.filter { $0 != 1 }.count) points not owned once")
            let words = candidate.text.split(separator: " ").map(String.init)
            #expect(segments.words.map(\.text) == words)
            for w in segments.words {
                #expect(segments.characters[w.characters].map(\.text).joined() == w.text)
            }
        }
    }

    @Test("words composed from isolated letters of held-out writers: strokes go to their own letter, late dots and bars included")
    func composedWords() async throws {
        // python3 -m inkrec_training latin evaluate hints alignment --write-fixture: UNIPEN letters of held-out writers, each
        // stroke's letter known, i-dots and t-bars moved to the end of the word.
        let text = try String(contentsOf: Fixtures.url("alignment/composed.jsonl"), encoding: .utf8)
        let recognizer = Self.recognizer(maxResults: 1)
        var read = 0, strokes = 0, right = 0, late = 0, lateRight = 0
        for line in text.split(separator: "\n") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let (ink, _) = Fixtures.ink(o)
            let label = o["label"] as! String, owners = o["owners"] as! [Int], delayed = o["delayed"] as! [Bool]
            let best = try #require(try await recognizer.recognize(ink).best)
            guard best.text == label else { continue }
            read += 1
            let characters = try #require(best.segments).characters
            for (s, owner) in owners.enumerated() {
                let points = characters.map { c in c.strokes.filter { $0.stroke == s }.reduce(0) { $0 + $1.points.count } }
                let assigned = points.indices.max { points[$0] < points[$1] }!
                strokes += 1
                if assigned == owner { right += 1 }
                if delayed[s] { late += 1; if assigned == owner { lateRight += 1 } }
            }
        }
        #expect(read >= 6)
        #expect(Double(right) >= 0.95 * Double(strokes), "\(right) of \(strokes)")
        #expect(late > 0 && Double(lateRight) >= 0.9 * Double(late), "\(lateRight) of \(late) late strokes")
    }

    @Test("a page's segments use the page's stroke indices")
    func page() async throws {
        let ink = try sample("page.json").ink
        let result = try await Self.recognizer(maxResults: 1).recognizePage(ink)
        #expect(result.lines.count > 1)
        for line in result.lines {
            let segments = try #require(line.candidates.first?.segments)
            let used = Set(segments.characters.flatMap(\.strokes).map(\.stroke))
            #expect(used.isSubset(of: Set(line.strokeIndices)))
            #expect(used.count == Set(line.strokeIndices).count)
        }
    }
}

@Suite("Alignment: the late dots and marks of Arabic-script letters")
struct ArabicLateMarkTests {
    /// How many late strokes each character of `text` takes (``_StrokeAssignment/lateMarks(_:at:)``).
    static func counts(_ text: String) -> [Int] {
        let characters = Array(text)
        return characters.indices.map { _StrokeAssignment.lateMarks(characters, at: $0).count }
    }

    @Test("letters with dots take as many late strokes as dots, letters with a hamza, madda or bar any number, undotted letters none")
    func letters() {
        #expect(Self.counts("بتثپ") == [1, 2, 3, 3])
        for c in "بجخذزضظغفن" { #expect(Self.counts(String(c)) == [1], "\(c)") }
        for c in "تقية" { #expect(Self.counts(String(c)) == [2], "\(c)") }
        for c in "ثشپچژ" { #expect(Self.counts(String(c)) == [3], "\(c)") }
        for c in "ٹڈڑگأإآؤئۓ" { #expect(Self.counts(String(c)) == [Int.max], "\(c)") }
        for c in "ادروحعسصطلمهىکےںہھء" { #expect(Self.counts(String(c)) == [0], "\(c)") }
        // Latin as before: any number of strokes on i, t, é, on either side; none on a.
        #expect(Self.counts("itéa") == [Int.max, Int.max, Int.max, 0])
        #expect(_StrokeAssignment.lateMarks(["é"], at: 0) == .any)
    }

    @Test("without decomposing: in the mark-free blocks, exactly the listed code points decompose with a nonspacing mark")
    func markFreeBlocks() {
        for block in _StrokeAssignment.markFreeBlocks {
            for value in block {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let nfd = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars
                let hasMark = nfd.count > 1 && nfd.dropFirst().contains { $0.properties.generalCategory == .nonspacingMark }
                #expect(_StrokeAssignment.decomposedWithMark.contains(value) == hasMark, "U+\(String(value, radix: 16))")
            }
        }
        // Outside those blocks the decomposition still decides: é and が take a late mark, e and か do not.
        #expect(_StrokeAssignment.takesLateMark("é") && _StrokeAssignment.takesLateMark("が"))
        #expect(!_StrokeAssignment.takesLateMark("e") && !_StrokeAssignment.takesLateMark("か"))
    }

    @Test("ی has dots only joined to the next letter, ك its mark only when not; a zero-width non-joiner ends the joining")
    func forms() {
        #expect(Self.counts("بیت") == [1, 2, 2])       // medial ی
        #expect(Self.counts("نی") == [1, 0])           // final ی
        #expect(Self.counts("یک") == [2, 0])           // initial ی
        #expect(Self.counts("شیء") == [3, 0, 0])       // ی before a hamza, which joins nothing: final form
        #expect(Self.counts("ی a") == [0, 0, 0])
        #expect(Self.counts("ملك") == [0, 0, Int.max]) // final ك
        #expect(Self.counts("كتاب") == [0, 2, 0, 1])   // initial ك
        #expect(Self.counts("می\u{200C}شود") == [0, 0, 3, 0, 0]) // "ی\u{200C}" is one Character
        #expect(Self.counts("کتاب\u{200C}ها") == [0, 2, 0, 1, 0, 0])
    }

    @Test("a letter takes a stroke on the side of its mark; a dotted letter only a dot, as many as its dots")
    func takes() {
        let b = _StrokeAssignment.lateMarks(["ب"], at: 0), t = _StrokeAssignment.lateMarks(["ت"], at: 0)
        #expect(b.takes(isDot: true, held: 0, above: false) && !b.takes(isDot: true, held: 0, above: true))
        #expect(t.takes(isDot: true, held: 1, above: true) && !t.takes(isDot: true, held: 2, above: true))
        #expect(!t.takes(isDot: false, held: 0, above: true))  // a stroke larger than a dot
        let hamzaBelow = _StrokeAssignment.lateMarks(["إ"], at: 0)
        #expect(hamzaBelow.takes(isDot: false, held: 5, above: false) && !hamzaBelow.takes(isDot: true, held: 0, above: true))
        let jeem = _StrokeAssignment.lateMarks(["ج"], at: 0)
        #expect(jeem.takes(isDot: true, held: 0, above: true) && jeem.takes(isDot: true, held: 0, above: false))
        #expect(_StrokeAssignment.LateMarks.any.takes(isDot: false, held: 9, above: true))
        #expect(!_StrokeAssignment.LateMarks.none.takes(isDot: true, held: 0, above: true))
    }

    /// Two letters anchored on strokes 0 (x 100…200) and 1 (x 40…90), both 40 high (y 0…40), and two
    /// dots at x = 93, nearer the second letter, at height `y`: the strokes each character gets.
    static func dots(_ text: String, y: Float = 60) -> [Set<Int>] {
        let ink = Ink(strokes: [
            Stroke(points: [StrokePoint(x: 200, y: 0), StrokePoint(x: 100, y: 40)]),
            Stroke(points: [StrokePoint(x: 90, y: 0), StrokePoint(x: 40, y: 40)]),
            Stroke(points: [StrokePoint(x: 93, y: y)]),
            Stroke(points: [StrokePoint(x: 93, y: y + 2)]),
        ])
        let origins = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0)]
            .map { FeatureExtractor.FrameOrigin(stroke: Int32($0.0), point: Int32($0.1)) }
        let segments = _StrokeAssignment.segmentation(
            characters: Array(text), labels: [1, 2], owners: [0, 1], path: [0, -1, 1, -1, -1, -1], reduction: 1,
            logProbs: FeatureMatrix(rows: 6, columns: 3, values: [Float](repeating: -1, count: 18)),
            origins: origins, runs: _StrokeAssignment.strokeRuns(origins), ink: ink)
        return segments.characters.map { Set($0.strokes.map(\.stroke)) }
    }

    @Test("a late dot goes to the dotted letter beside it, on its side, and the next to its neighbour once the letter holds its dots")
    func assignment() {
        #expect(Self.dots("بر") == [[0, 2], [1, 3]])         // ب has one dot, below
        #expect(Self.dots("بر", y: -20) == [[0], [1, 2, 3]]) // dots above are not ب's
        #expect(Self.dots("تر", y: -20) == [[0, 2, 3], [1]]) // ت has two, above
        #expect(Self.dots("در") == [[0], [1, 2, 3]])         // د none: the nearest
        #expect(Self.dots("ir", y: -20) == [[0, 2, 3], [1]]) // Latin as before: i takes any number
    }
}
