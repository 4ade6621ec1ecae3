import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Synthetic right-to-left writing: "letters" (arches a body height tall) written as a Hebrew or
/// Arabic writer writes them, each word from its right end, words from right to left.
enum RTLInk {
    static let height: Float = 20, width: Float = 12, pitch: Float = 18

    /// One letter: an arch 12 wide and 20 tall whose left edge is at `x`, its top at `top`.
    static func letter(x: Float, top: Float) -> Stroke {
        let corners = [(x, top + height), (x + 3, top), (x + width - 3, top), (x + width, top + height)]
        var points: [StrokePoint] = []
        for (a, b) in zip(corners, corners.dropFirst()) {
            for k in 0..<5 {
                let f = Float(k) / 5
                points.append(StrokePoint(x: a.0 + f * (b.0 - a.0), y: a.1 + f * (b.1 - a.1)))
            }
        }
        points.append(StrokePoint(x: corners[3].0, y: corners[3].1))
        return Stroke(points: points)
    }

    /// A word of `letters` letters whose right end is at `right`, in writing order: the rightmost
    /// letter first.
    static func word(right: Float, top: Float, letters: Int = 3) -> [Stroke] {
        (0..<letters).map { k in letter(x: right - width - Float(k) * pitch, top: top) }
    }

    /// The box around the points of `strokes` of `ink`, computed here.
    static func box(_ strokes: [Int], of ink: Ink) -> (minX: Float, minY: Float, maxX: Float, maxY: Float) {
        let points = strokes.flatMap { ink.strokes[$0].points }
        return (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
    }

    /// `ink` mirrored in x.
    static func mirrored(_ ink: Ink) -> Ink {
        Ink(strokes: ink.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: -$0.x, y: $0.y, t: $0.t) }) })
    }
}

@Suite("Writing direction: right-to-left pages, the model's direction, results that carry it")
struct WritingDirectionTests {
    // MARK: Reading order

    @Test("right to left: clusters come out right to left, a word written later to the right of the line comes first, a late dot goes back to its word")
    func rightToLeftLine() throws {
        // Word A written first, from its right end; then word B written later to its right; then
        // a dot over A's middle letter, written last.
        let a = RTLInk.word(right: 250, top: 100)
        let b = RTLInk.word(right: 340, top: 100)
        let middle = a[1].points.map(\.x)
        let dot = Stroke(points: [StrokePoint(x: (middle.min()! + middle.max()!) / 2, y: 90)])
        let ink = Ink(strokes: a + b + [dot])

        let rtl = try InkLayout.lines(of: ink, direction: .rightToLeft)
        try #require(rtl.count == 1)
        // B (strokes 3, 4, 5, each right of the next) first, then A; the dot (6) after its word, whose
        // letters were written one after another (as a dot written after its word is read in training).
        #expect(rtl[0].strokeIndices == [3, 4, 5, 0, 1, 2, 6])
        // The same strokes read left to right: the other way round (the dot after its letter's cluster).
        let ltr = try InkLayout.lines(of: ink)
        try #require(ltr.count == 1)
        #expect(ltr[0].strokeIndices == [2, 1, 6, 0, 5, 4, 3])
        #expect(try InkLayout.lines(of: ink, direction: .leftToRight) == ltr)
        // The box is the same either way, in the ink's coordinates.
        #expect(rtl[0].boundingBox == ltr[0].boundingBox)
        let box = RTLInk.box(Array(ink.strokes.indices), of: ink)
        #expect(rtl[0].boundingBox.x == box.minX && rtl[0].boundingBox.y == box.minY)
        #expect(abs(rtl[0].boundingBox.x + rtl[0].boundingBox.width - box.maxX) < 1e-3)
    }

    @Test("right to left: the pieces of a word written one after another keep their order with the dots written after them; a word gap or a word written later breaks the run")
    func piecesOfAWordKeepTheirWritingOrder() throws {
        // Word A of three pieces 4.5 apart (more than 0.15, less than 0.4 of a body height: clusters of
        // their own, one run), written from its right end; a dot over its first piece written after the
        // whole word; then word B to its left, a word gap away; then word C written last, to its right.
        let a = (0..<3).map { k in RTLInk.letter(x: 250 - RTLInk.width - Float(k) * 16.5, top: 100) }
        let first = a[0].points.map(\.x)
        let dot = Stroke(points: [StrokePoint(x: (first.min()! + first.max()!) / 2, y: 90)])
        let b = RTLInk.word(right: 160, top: 100)
        let c = RTLInk.word(right: 340, top: 100)
        let ink = Ink(strokes: a + [dot] + b + c)
        let lines = try InkLayout.lines(of: ink, direction: .rightToLeft)
        try #require(lines.count == 1)
        // C (7, 8, 9) first: written later, so no run with A; then A as written, its dot after its pieces
        // (it was 0, 3, 1, 2 when each piece was a cluster of its own); then B, written right after A's
        // dot but a word gap away.
        #expect(lines[0].strokeIndices == [7, 8, 9, 0, 1, 2, 3, 4, 5, 6])
        #expect(LineSegmenter.writtenInOrder([(0, 10, [0]), (12, 20, [1]), (30, 40, [2]), (41, 50, [3]), (51, 60, [5]),
                                              (61, 70, [4])], within: 5) == [0..<2, 2..<4, 4..<5, 5..<6])
        #expect(LineSegmenter.writtenInOrder([], within: 5).isEmpty)
    }

    @Test("the mirror of the reading-order test: a word written later to the right of a right-to-left line comes first")
    func mirroredReadingOrder() throws {
        // PageTests.readingOrder's line ("there", then "hello" written later to its left), mirrored in
        // x: "hello" is now written later to the RIGHT of "there", as a right-to-left writer adds a
        // word before the others.
        let hello = try sample("hello.json").ink, there = try sample("there.json").ink
        let helloBox = BoundingBox(strokes: Array(hello.strokes.indices), of: hello)
        let thereBox = BoundingBox(strokes: Array(there.strokes.indices), of: there)
        let scale = helloBox.height / max(thereBox.height, 1)
        let scaledThere = Ink(strokes: there.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x * scale, y: $0.y * scale) }) })
        let sBox = BoundingBox(strokes: Array(scaledThere.strokes.indices), of: scaledThere)
        let (dx, dy) = (helloBox.x + helloBox.width + 0.6 * helloBox.height - sBox.x, helloBox.y + helloBox.height / 2 - (sBox.y + sBox.height / 2))
        let thereStrokes = scaledThere.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x + dx, y: $0.y + dy) }) }
        let written = Ink(strokes: thereStrokes + hello.strokes)
        let ink = RTLInk.mirrored(written)
        let firstHello = thereStrokes.count

        let lines = try InkLayout.lines(of: ink, direction: .rightToLeft)
        try #require(lines.count == 1)
        let order = lines[0].strokeIndices
        #expect(Array(order.prefix(hello.strokes.count)).sorted() == Array(firstHello..<ink.strokes.count))
        // Read left to right, the mirrored line starts with "there" (now at its left end).
        let ltr = try InkLayout.lines(of: ink)
        #expect(ltr.count == 1 && Array(ltr[0].strokeIndices.prefix(thereStrokes.count)).sorted() == Array(0..<firstHello))
        // Exactly the left-to-right order of the line as written.
        #expect(order == (try InkLayout.lines(of: written))[0].strokeIndices)
    }

    @Test("a right-to-left page of three lines: lines top to bottom, each read from its right end, boxes in the ink's coordinates")
    func rightToLeftPage() throws {
        // Three lines written top to bottom, each as two words from the right.
        var strokes: [Stroke] = []
        for line in 0..<3 {
            let top = 200 + Float(line) * 50
            strokes += RTLInk.word(right: 600, top: top) + RTLInk.word(right: 520, top: top)
        }
        let ink = Ink(strokes: strokes)
        let lines = try InkLayout.lines(of: ink, direction: .rightToLeft)
        try #require(lines.count == 3)
        for (k, line) in lines.enumerated() {
            // Written right to left, so read in writing order.
            #expect(line.strokeIndices == Array((6 * k)..<(6 * k + 6)), "line \(k + 1)")
            let b = line.boundingBox, box = RTLInk.box(line.strokeIndices, of: ink)
            #expect(b.x == box.minX && b.y == box.minY, "line \(k + 1): \(b)")
            #expect(abs(b.x + b.width - box.maxX) < 1e-3 && abs(b.y + b.height - box.maxY) < 1e-3, "line \(k + 1): \(b)")
            #expect(b.x > 400 && b.x + b.width <= 600)  // not a mirrored box (negative x)
        }
        #expect(lines.map(\.boundingBox.y) == lines.map(\.boundingBox.y).sorted())
        // Left to right: the same lines, each the other way round.
        let ltr = try InkLayout.lines(of: ink)
        #expect(ltr.map { Array($0.strokeIndices.reversed()) } == lines.map(\.strokeIndices))
        #expect(ltr.map(\.boundingBox) == lines.map(\.boundingBox))
    }

    @Test("every fixture page mirrored in x, read right to left, gives the lines and order of the page read left to right (with the same rule for runs written in order), its boxes mirrored")
    func mirroredFixturePages() throws {
        #expect(FixturePage.all.count == 12)
        var differ = 0
        for page in FixturePage.all {
            let ltr = try LineSegmenter(keepingWrittenRuns: true).lines(of: page.ink)
            let rtl = try InkLayout.lines(of: RTLInk.mirrored(page.ink), direction: .rightToLeft)
            if try InkLayout.lines(of: page.ink).map(\.strokeIndices) != ltr.map(\.strokeIndices) { differ += 1 }
            #expect(rtl.map(\.strokeIndices) == ltr.map(\.strokeIndices), "\(page.id)")
            for (r, l) in zip(rtl.map(\.boundingBox), ltr.map(\.boundingBox)) {
                let tolerance = 1e-5 * max(1, abs(l.x) + l.width)
                #expect(abs(r.x - -(l.x + l.width)) <= tolerance && r.width == l.width && r.y == l.y && r.height == l.height,
                        "\(page.id): \(r) is not the mirror of \(l)")
            }
        }
        // The rule for runs written in order changes the order of some of these Latin pages (marks written
        // after a word, read after it): left to right it is off (the page figures were measured without it).
        #expect(differ > 0)
    }

    // MARK: The model's direction

    @Test("config.json direction: ltr, rtl, absent (ltr), anything else a typed error naming the value")
    func configuration() async throws {
        for (value, expected) in [("ltr", WritingDirection.leftToRight), ("rtl", .rightToLeft), (nil, .leftToRight)] as [(String?, WritingDirection)] {
            let dir = try makeTinyModelDirectory { if let value { $0["direction"] = value } }
            defer { try? FileManager.default.removeItem(at: dir) }
            let config = try ModelConfiguration.load(from: dir.appendingPathComponent("config.json"))
            #expect(config.direction == value)
            #expect(config.writingDirection == expected, "\(value ?? "absent")")
            let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
            #expect(try await recognizer.writingDirection == expected, "\(value ?? "absent")")
        }
        for bad in ["RTL", "right-to-left", ""] {
            let dir = try makeTinyModelDirectory { $0["direction"] = bad }
            defer { try? FileManager.default.removeItem(at: dir) }
            #expect(throws: DigitalInkError.modelCorrupt(file: "config.json", reason: "direction: unknown \"\(bad)\" (known: ltr, rtl)")) {
                try ModelConfiguration.load(from: dir.appendingPathComponent("config.json"))
            }
            let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
            await #expect(throws: DigitalInkError.modelCorrupt(file: "config.json", reason: "direction: unknown \"\(bad)\" (known: ltr, rtl)")) {
                try await recognizer.writingDirection
            }
        }
        let wrongType = try makeTinyModelDirectory { $0["direction"] = 1 }
        defer { try? FileManager.default.removeItem(at: wrongType) }
        #expect(throws: DigitalInkError.self) { try ModelConfiguration.load(from: wrongType.appendingPathComponent("config.json")) }
        // The shipped models are left to right.
        let english = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        #expect(try await english.writingDirection == .leftToRight)
    }

    @Test("recognizePage reads a page in its model's direction, and each line says which")
    func pageInModelDirection() async throws {
        var strokes: [Stroke] = []
        for line in 0..<2 {
            let top = 100 + Float(line) * 50
            strokes += RTLInk.word(right: 400, top: top) + RTLInk.word(right: 320, top: top)
        }
        let ink = Ink(strokes: strokes)
        let rtlModel = try makeTinyModelDirectory { $0["direction"] = "rtl" }
        let ltrModel = try makeTinyModelDirectory()
        defer { for d in [rtlModel, ltrModel] { try? FileManager.default.removeItem(at: d) } }

        let rtl = try await DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: rtlModel)).recognizePage(ink)
        let rtlLayout = try InkLayout.lines(of: ink, direction: .rightToLeft)
        #expect(rtl.lines.map(\.strokeIndices) == rtlLayout.map(\.strokeIndices))
        #expect(rtl.lines.map(\.strokeIndices) == [Array(0..<6), Array(6..<12)])
        #expect(rtl.lines.map(\.boundingBox) == rtlLayout.map(\.boundingBox))
        #expect(rtl.lines.allSatisfy { $0.direction == .rightToLeft })
        #expect(rtl.lines.allSatisfy { !$0.candidates.isEmpty })
        let json = RecognitionJSON.page(rtl)
        let jsonLines = try #require(json["lines"] as? [[String: Any]])
        #expect(jsonLines.map { $0["direction"] as? String } == ["rtl", "rtl"])

        let ltr = try await DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: ltrModel)).recognizePage(ink)
        #expect(ltr.lines.map(\.strokeIndices) == (try InkLayout.lines(of: ink)).map(\.strokeIndices))
        #expect(ltr.lines.map(\.strokeIndices) == [Array((0..<6).reversed()), Array((6..<12).reversed())])
        #expect(ltr.lines.allSatisfy { $0.direction == .leftToRight })
    }

    @Test("a number written left to right inside a right-to-left line keeps its writing order (logical order); the words around it go right to left")
    func leftToRightRunInsideRightToLeftLine() throws {
        // Word A (strokes 0–2) at the right, then three digit-like bars (3–5) written left to right, then
        // word B (6–8) at the left: the line reads A, the bars as written, B.
        func bar(_ x: Float) -> Stroke {
            Stroke(points: (0...10).map { StrokePoint(x: x, y: 100 + 2 * Float($0)) })
        }
        let a = RTLInk.word(right: 400, top: 100)
        let bars = [bar(300), bar(310), bar(320)]
        let b = RTLInk.word(right: 280, top: 100)
        let ink = Ink(strokes: a + bars + b)
        let lines = try InkLayout.lines(of: ink, direction: .rightToLeft)
        #expect(lines.map(\.strokeIndices) == [Array(0..<9)])
        // The same bars written right to left are a right-to-left run: read right to left.
        let backwards = Ink(strokes: a + bars.reversed() + b)
        #expect(try InkLayout.lines(of: backwards, direction: .rightToLeft).map(\.strokeIndices) == [Array(0..<9)])
        // Written left to right but not one after the other (a bar added after word B): no run, right to left.
        let late = Ink(strokes: a + [bars[0], bars[1]] + b + [bars[2]])
        #expect(try InkLayout.lines(of: late, direction: .rightToLeft).map(\.strokeIndices) == [[0, 1, 2, 8, 3, 4, 5, 6, 7]])
        // A left-to-right model's page is not touched: clusters left to right.
        #expect(try InkLayout.lines(of: ink).map(\.strokeIndices) == [[8, 7, 6, 3, 4, 5, 2, 1, 0]])
    }

    /// The right-to-left page samples: a line of two words by one held-out writer, the left word written
    /// first (strokes `left`), then the first word of the text to its right (`right`); the label is the text
    /// in logical order. `generated-he-page.json`: עולם, then שלום → "שלום עולם"; `generated-ar-page.json`:
    /// عليكم (its dots included), then السلام → "السلام عليكم".
    static let latePageSamples: [(model: String, file: String, left: Range<Int>, right: Range<Int>)] = [
        ("he", "generated-he-page.json", 0..<5, 5..<9), ("ar", "generated-ar-page.json", 0..<12, 12..<21),
    ]

    @Test("the shipped Hebrew and Arabic models read a page right to left: the word written last, to the right of the other, comes first in the text",
          arguments: latePageSamples)
    func pageLateWordGoesFirst(_ sample: (model: String, file: String, left: Range<Int>, right: Range<Int>)) async throws {
        let doc = try DigitalInkTests.sample(sample.file)
        let label = try #require(doc.label)
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(
            modelDirectory: Fixtures.modelsDirectory.appendingPathComponent(sample.model)))
        #expect(try await recognizer.writingDirection == .rightToLeft)
        let page = try await recognizer.recognizePage(doc.ink)
        let line = try #require(page.lines.first)
        #expect(page.lines.count == 1)
        #expect(line.direction == .rightToLeft)
        // The right word's strokes first, in writing order; the left word's after them (an Arabic word's dots
        // may sit among its pieces).
        #expect(Array(line.strokeIndices.prefix(sample.right.count)) == Array(sample.right))
        #expect(line.strokeIndices.dropFirst(sample.right.count).sorted() == Array(sample.left))
        #expect(page.text == label, "\(page.lines.map(\.text))")
        // Read as the ink was written (no page layout), the words come in writing order instead.
        let asWritten = try await recognizer.recognize(doc.ink).candidates.first?.text
        #expect(asWritten != label, "\(String(describing: asWritten))")
    }

    // MARK: Results

    static let line = PageRecognitionResult.Line(
        strokeIndices: [2, 0, 1], boundingBox: BoundingBox(x: 10, y: 20, width: 30.5, height: 40),
        candidates: [DigitalInkRecognitionCandidate(text: "שלום", score: -1.25, confidence: 0.75)], direction: .rightToLeft)

    @Test("a page line with its direction survives a JSON round trip; JSON without one (older results) decodes as left to right")
    func lineCoding() throws {
        #expect(String(decoding: try JSONEncoder().encode([WritingDirection.leftToRight, .rightToLeft]), as: UTF8.self) == #"["ltr","rtl"]"#)
        let data = try JSONEncoder().encode(PageRecognitionResult(lines: [Self.line]))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let lineObject = try #require((object["lines"] as? [[String: Any]])?.first)
        #expect(lineObject["direction"] as? String == "rtl")
        let decoded = try JSONDecoder().decode(PageRecognitionResult.self, from: data)
        #expect(decoded.lines == [Self.line])
        #expect(decoded.lines[0].direction == .rightToLeft)

        // The same JSON without "direction", as a result written before lines had one.
        var old = lineObject
        old["direction"] = nil
        let oldData = try JSONSerialization.data(withJSONObject: ["lines": [old]])
        let oldDecoded = try JSONDecoder().decode(PageRecognitionResult.self, from: oldData)
        var expected = Self.line
        expected.direction = .leftToRight
        #expect(oldDecoded.lines == [expected])
        // The initializer without a direction makes a left-to-right line.
        #expect(PageRecognitionResult.Line(strokeIndices: expected.strokeIndices, boundingBox: expected.boundingBox,
                                           candidates: expected.candidates) == expected)
        // An unknown direction is refused.
        var bad = lineObject
        bad["direction"] = "up"
        let badData = try JSONSerialization.data(withJSONObject: ["lines": [bad]])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PageRecognitionResult.self, from: badData) }
    }

    @Test("RecognitionJSON.page: each line has its direction besides the keys it had")
    func pageJSON() throws {
        var ltrLine = Self.line
        ltrLine.direction = .leftToRight
        let o = RecognitionJSON.page(PageRecognitionResult(lines: [Self.line, ltrLine]))
        let lines = try #require(o["lines"] as? [[String: Any]])
        #expect(lines.map { $0.keys.sorted() } == Array(repeating: ["box", "candidates", "direction", "strokes", "text"], count: 2))
        #expect(lines.map { $0["direction"] as? String } == ["rtl", "ltr"])
        #expect(lines.map { $0["strokes"] as? [Int] } == [[2, 0, 1], [2, 0, 1]])
        let text = RecognitionJSON.line(o)
        #expect(text.contains(#""direction":"rtl","strokes":[2,0,1],"text":"שלום""#), "\(text)")
    }
}
