import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// A generated page of the fixture (python3 -m inkrec_training pages data, held-out UNIPEN writers, CC BY 4.0).
struct FixturePage {
    var id: String
    var variant: String
    var ink: Ink
    /// The true lines, top to bottom: their text and stroke indices.
    var lines: [(text: String, strokes: [Int])]

    /// A case's description, where the fixture gives one (`segmentation-cases.jsonl`).
    var note: String = ""

    static let all: [FixturePage] = load("pages/pages-small.jsonl")

    /// The pages of a JSON Lines fixture in `Fixtures/` (make_pages.py's format).
    static func load(_ path: String) -> [FixturePage] {
        let url = Fixtures.url(path)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let strokes = o["strokes"] as? [[[Double]]], let lines = o["lines"] as? [[String: Any]] else { return nil }
            return FixturePage(
                id: o["id"] as? String ?? "", variant: o["variant"] as? String ?? "",
                ink: Ink(strokes: strokes.map { Stroke(points: $0.map { StrokePoint(x: Float($0[0]), y: Float($0[1])) }) }),
                lines: lines.map { ($0["text"] as? String ?? "", $0["strokes"] as? [Int] ?? []) },
                note: o["case"] as? String ?? "")
        }
    }
}

@Suite("Pages: line segmentation, reading order, recognizePage")
struct PageTests {
    static let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    @Test("the fixture has pages of every variant")
    func fixture() {
        #expect(FixturePage.all.count == 12)
        #expect(Set(FixturePage.all.map(\.variant)) == ["plain", "inserted-word", "inserted-line", "late-marks"])
    }

    @Test("every stroke with points is in exactly one line; lines are found on at least 10 of the 12 fixture pages")
    func partition() throws {
        var right = 0
        for page in FixturePage.all {
            let lines = try InkLayout.lines(of: page.ink)
            let all = lines.flatMap(\.strokeIndices)
            #expect(all.sorted() == Array(page.ink.strokes.indices), "\(page.id)")
            if lines.count == page.lines.count { right += 1 }
            // Boxes contain their strokes' points.
            for line in lines {
                let b = line.boundingBox
                for i in line.strokeIndices {
                    for p in page.ink.strokes[i].points {
                        #expect(p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height)
                    }
                }
            }
        }
        #expect(right >= 10, "line count right on \(right) of \(FixturePage.all.count) pages")
    }

    @Test("plain pages are split into exactly their lines, top to bottom, in writing order")
    func plainPages() throws {
        for page in FixturePage.all where page.variant == "plain" {
            let lines = try InkLayout.lines(of: page.ink)
            #expect(lines.map { Set($0.strokeIndices) } == page.lines.map { Set($0.strokes) }, "\(page.id)")
        }
    }

    @Test("a line written later between two others is put back in its place")
    func insertedLine() throws {
        for page in FixturePage.all where page.variant == "inserted-line" {
            let lines = try InkLayout.lines(of: page.ink)
            guard lines.count == page.lines.count else { continue }  // counted in `partition`
            // The moved line's strokes come last in the ink, but its line is in the middle.
            let found = lines.map { Set($0.strokeIndices) }
            let overlap = zip(found, page.lines.map { Set($0.strokes) }).map { $0.intersection($1).count }
            #expect(overlap.reduce(0, +) * 10 >= page.ink.strokes.count * 9, "\(page.id)")
        }
    }

    @Test("reading order: a word written later to the left of a line comes first; a late i-dot goes back to its word")
    func readingOrder() throws {
        // Two words of one line: "there" then "hello" written later to its left.
        let hello = try sample("hello.json").ink, there = try sample("there.json").ink
        func moved(_ ink: Ink, dx: Float, dy: Float) -> [Stroke] {
            ink.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x + dx, y: $0.y + dy) }) }
        }
        let helloBox = BoundingBox(strokes: Array(hello.strokes.indices), of: hello)
        let thereBox = BoundingBox(strokes: Array(there.strokes.indices), of: there)
        let scale = helloBox.height / max(thereBox.height, 1)
        let scaledThere = Ink(strokes: there.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x * scale, y: $0.y * scale) }) })
        let sBox = BoundingBox(strokes: Array(scaledThere.strokes.indices), of: scaledThere)
        let thereStrokes = moved(scaledThere, dx: helloBox.x + helloBox.width + 0.6 * helloBox.height - sBox.x,
                                 dy: helloBox.y + helloBox.height / 2 - (sBox.y + sBox.height / 2))
        let ink = Ink(strokes: thereStrokes + hello.strokes)  // "there" first, "hello" written later
        let lines = try InkLayout.lines(of: ink)
        try #require(lines.count == 1)
        let order = lines[0].strokeIndices
        let firstHello = thereStrokes.count
        #expect(Array(order.prefix(hello.strokes.count)).sorted() == Array(firstHello..<ink.strokes.count))
        #expect(try FeatureExtractor().features(for: Ink(strokes: order.map { ink.strokes[$0] })).rows > 0)

        // An i-dot written at the end of the line stays with its letter's word.
        let dot = Stroke(points: [StrokePoint(x: helloBox.x + helloBox.width * 0.5, y: helloBox.y - 0.2 * helloBox.height)])
        let dotted = Ink(strokes: ink.strokes + [dot])
        let dottedLines = try InkLayout.lines(of: dotted)
        try #require(dottedLines.count == 1)
        let position = try #require(dottedLines[0].strokeIndices.firstIndex(of: dotted.strokes.count - 1))
        #expect(position < hello.strokes.count + 1, "the dot was read at \(position), after the next word")
    }

    @Test("a short line written under the start of a long one is a line of its own (writing runs), and a long line stays one")
    func shortLineUnderLongLine() throws {
        // "hello there hello there" on one line, then "hello" right under its first word, the lines
        // 1.1 word heights apart (descenders and ascenders nearly touching).
        let hello = try sample("hello.json").ink, there = try sample("there.json").ink
        let helloBox = BoundingBox(strokes: Array(hello.strokes.indices), of: hello)
        let thereBox = BoundingBox(strokes: Array(there.strokes.indices), of: there)
        let scale = helloBox.height / max(thereBox.height, 1)
        func placed(_ ink: Ink, _ box: BoundingBox, scale k: Float, x: Float, centreY: Float) -> [Stroke] {
            ink.strokes.map { Stroke(points: $0.points.map {
                StrokePoint(x: ($0.x - box.x) * k + x, y: ($0.y - box.y - box.height / 2) * k + centreY) }) }
        }
        let h = helloBox.height, gap = 0.6 * h
        var long: [Stroke] = []
        var x: Float = 0
        for k in 0..<4 {
            let (ink, box, s) = k % 2 == 0 ? (hello, helloBox, Float(1)) : (there, thereBox, scale)
            long += placed(ink, box, scale: s, x: x, centreY: 0)
            x += box.width * s + gap
        }
        let short = placed(hello, helloBox, scale: 1, x: 0.2 * h, centreY: 1.1 * h)
        let ink = Ink(strokes: long + short)
        let lines = try InkLayout.lines(of: ink)
        try #require(lines.count == 2, "found \(lines.count) lines")
        #expect(Set(lines[0].strokeIndices) == Set(long.indices))
        #expect(Set(lines[1].strokeIndices) == Set(long.count..<ink.strokes.count))
    }

    @Test("with lineContinuation 1, recognizePage equals recognizing each found line alone, the line above as pre-context")
    func pageEqualsLines() async throws {
        let page = try #require(FixturePage.all.first { $0.variant == "plain" && $0.lines.count >= 3 })
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.decoder.lineContinuation = 1
        let recognizer = DigitalInkRecognizer(options: options)
        let result = try await recognizer.recognizePage(page.ink, context: RecognitionContext(preContext: "Note:"))
        #expect(result.lines.count == page.lines.count)
        var pre = "Note:"
        for line in result.lines {
            let alone = try await recognizer.recognize(Ink(strokes: line.strokeIndices.map { page.ink.strokes[$0] }),
                                                       context: RecognitionContext(preContext: pre))
            // The same candidates; their segments name the page's strokes instead of the line's.
            let mapped = alone.candidates.map { c in
                var c = c
                c.segments = c.segments?.mappingStrokes(line.strokeIndices)
                return c
            }
            #expect(mapped == line.candidates, "\(mapped.map(\.text)) vs \(line.candidates.map(\.text))")
            pre = line.text + " "
        }
        #expect(result.text == result.lines.map(\.text).joined(separator: "\n"))
        #expect(result.text.split(separator: "\n").count == result.lines.count)
    }

    @Test("an empty ink has no lines; one stroke is one line; the shapes model refuses pages")
    func edges() async throws {
        #expect(try await Self.recognizer.recognizePage(Ink(strokes: [])).lines.isEmpty)
        #expect(try InkLayout.lines(of: Ink(strokes: [Stroke(points: []), Stroke(points: [])])).isEmpty)
        let one = try sample("hello.json").ink.strokes[0]
        let r = try await Self.recognizer.recognizePage(Ink(strokes: [Stroke(points: []), one]))
        #expect(r.lines.map(\.strokeIndices) == [[1]])
        let shapes = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: Fixtures.modelsDirectory.appendingPathComponent("zxx-Zsym-x-shapes")))
        await #expect(performing: { try await shapes.recognizePage(try sample("hello.json").ink) }, throws: { error in
            if case DigitalInkError.invalidOption("recognizePage", _) = error { return true } else { return false }
        })
    }

    // Bounded: a quadratic pass over 100,000 strokes would take hours; the limit is generous because
    // the parallel test run shares two cores (78 s in a clean-clone run).
    @Test("a hostile ink of 100,000 one-point strokes is answered or refused with a typed error, in bounded time",
          .timeLimit(.minutes(10)))
    func hostile() async throws {
        var g = SystemRandomNumberGenerator()
        let strokes = (0..<100_000).map { _ in Stroke(points: [StrokePoint(x: Float.random(in: 0...1000, using: &g), y: Float.random(in: 0...1000, using: &g))]) }
        do {
            // On a thread of its own: not a cooperative one (other tests' timeouts run meanwhile), and
            // not queued behind other tests' recognitions on the compute threads.
            let ink = Ink(strokes: strokes)
            let lines = try await CLI.offThread { Result { () throws(DigitalInkError) in try InkLayout.lines(of: ink) } }.get()
            #expect(lines.flatMap(\.strokeIndices).count == 100_000)
        } catch {
            #expect(error == .invalidInk(.tooManyLines(limit: InkLayout.maxLines)))
        }
        // 200 rows of tall strokes: more lines than a page may have.
        var rows: [Stroke] = []
        for r in 0..<250 {
            for c in 0..<8 {
                let x = Float(c * 30), y = Float(r * 40)
                rows.append(Stroke(points: [StrokePoint(x: x, y: y), StrokePoint(x: x + 5, y: y + 20)]))
            }
        }
        #expect(throws: DigitalInkError.invalidInk(.tooManyLines(limit: InkLayout.maxLines))) { try InkLayout.lines(of: Ink(strokes: rows)) }
    }
}
