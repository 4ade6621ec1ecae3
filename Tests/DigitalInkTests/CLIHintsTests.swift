import Foundation
import Testing

@Suite("inkrec: hints, confidence and segments")
struct CLIHintsTests {
    static let model = ["--model-directory", "Models/en-US"]

    static func temporaryFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("--vocabulary with --strict returns only its entries; --strict alone is a usage error")
    func strict() async throws {
        let file = try Self.temporaryFile("open\nclose\n\n  hello  \nsave as\n")
        let r = try await CLI.run(["recognize", "Samples/there.json", "Samples/hello.json", "--vocabulary", file, "--strict",
                                   "--format", "json"] + Self.model)
        #expect(r.status == 0, "\(r.stderr)")
        let objects = r.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 2)
        for o in objects {
            let texts = (o["candidates"] as! [[String: Any]]).map { $0["text"] as! String }
            #expect(!texts.isEmpty && texts.allSatisfy { ["open", "close", "hello", "save as"].contains($0) }, "\(texts)")
        }
        let alone = try await CLI.run(["recognize", "Samples/hello.json", "--strict"] + Self.model)
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--strict needs --vocabulary"))
        let missing = try await CLI.run(["recognize", "Samples/hello.json", "--vocabulary", "/nonexistent/words.txt"] + Self.model)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("cannot read /nonexistent/words.txt"))
        let badWeight = try await CLI.run(["recognize", "Samples/hello.json", "--vocabulary", file, "--vocabulary-weight", "50"] + Self.model)
        #expect(badWeight.status != 0)
        #expect(badWeight.stderr.contains("--vocabulary-weight"), "\(badWeight.stderr)")
    }

    @Test("JSON output has each candidate's confidence, characters and words with strokes, points and boxes")
    func jsonSegments() async throws {
        let r = try await CLI.run(["recognize", "Samples/hello.json", "--format", "json", "--max-results", "2"] + Self.model)
        #expect(r.status == 0, "\(r.stderr)")
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let best = (o["candidates"] as! [[String: Any]])[0]
        #expect(best["text"] as? String == "hello")
        let confidence = try #require(best["confidence"] as? Double)
        #expect(confidence > 0.5 && confidence <= 1)
        let characters = try #require(best["characters"] as? [[String: Any]])
        #expect(characters.map { $0["text"] as! String } == ["h", "e", "l", "l", "o"])
        for c in characters {
            let spans = c["strokes"] as! [[String: Any]]
            #expect(!spans.isEmpty)
            let points = spans[0]["points"] as! [Int]
            #expect(points.count == 2 && points[0] < points[1])
            let box = c["box"] as! [String: Any]
            #expect((box["width"] as! Double) > 0)
        }
        let words = try #require(best["words"] as? [[String: Any]])
        #expect(words.count == 1 && words[0]["text"] as? String == "hello" && words[0]["characters"] as? [Int] == [0, 5])
    }

    @Test("text output: each text candidate's score and confidence")
    func textConfidence() async throws {
        let r = try await CLI.run(["recognize", "Samples/hello.json"] + Self.model)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Samples/hello.json: hello")
        let columns = lines[1].split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count == 3 && columns[1].hasSuffix("%") && columns[2] == "\"hello\"", "\(lines[1])")
        let percent = Double(columns[1].dropLast()) ?? -1
        #expect(percent > 50 && percent <= 100)
    }

    @Test("render --segments draws each character's box and label over the ink")
    func render() async throws {
        let r = try await CLI.run(["render", "Samples/hello.json", "--segments"] + Self.model)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<svg"))
        for letter in ["h", "e", "l", "o"] { #expect(r.stdout.contains(">\(letter)</text>")) }
        #expect(r.stdout.components(separatedBy: "<rect").count - 1 >= 6)  // the background and 5 boxes
    }
}
