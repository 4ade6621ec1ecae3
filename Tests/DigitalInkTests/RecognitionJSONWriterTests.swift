import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("RecognitionJSON's writer: the same text as JSONSerialization")
struct RecognitionJSONWriterTests {
    static func foundation(_ o: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    @Test("random answers (candidates, segments, boxes, numbers, escapes, non-ASCII) are written byte for byte as JSONSerialization writes them")
    func sameAsFoundation() throws {
        var g = SplitMix(seed: 7)
        let pieces = ["a", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{c}", "\u{1}", "\u{1f}", "\u{7f}", "é", "ß", "日本", "\u{2028}", "😀", " ", "{", "}"]
        func text() -> String { (0..<Int.random(in: 0...8, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined() }
        func number() -> Any {
            switch Int.random(in: 0..<5, using: &g) {
            case 0: return Int.random(in: -1000...100_000, using: &g)
            case 1: return Double("\(Float.random(in: -50...50, using: &g))")!
            case 2: return Double(Int.random(in: -5...5000, using: &g))
            case 3: return [1e-7, 1e21, 1e16, 1e15, -0.0, 0.1, 123456789.0, 5e-324][Int.random(in: 0..<8, using: &g)]
            default: return NSNull()
            }
        }
        for _ in 0..<500 {
            let candidates: [[String: Any]] = (0..<Int.random(in: 0...4, using: &g)).map { _ in
                ["text": text(), "score": number(), "confidence": number(),
                 "characters": (0..<Int.random(in: 0...3, using: &g)).map { _ -> [String: Any] in
                     ["text": text(), "strokes": [["stroke": Int.random(in: 0...9, using: &g), "points": [0, Int.random(in: 1...99, using: &g)]]],
                      "box": Bool.random(using: &g) ? NSNull() : ["x": number(), "y": number(), "width": number(), "height": number()] as Any]
                 }]
            }
            var o: [String: Any] = ["candidates": candidates, "line": Int.random(in: 1...9999, using: &g), "id": text()]
            if Bool.random(using: &g) { o["strokes"] = [3, 1, 2] }
            if Bool.random(using: &g) { o["lines"] = [Any]([["text": text()] as [String: Any], NSNull(), true, false, 2.5]) }
            let fast = try #require(_FastJSONWriter.serialize(o))
            #expect(fast == Self.foundation(o))
            #expect(RecognitionJSON.line(o) == fast)
        }
    }

    @Test("what the writer does not take (keys other than lowercase letters, other value types, non-finite numbers) goes to JSONSerialization")
    func fallback() {
        #expect(_FastJSONWriter.serialize(["Text": "a"]) == nil)
        #expect(_FastJSONWriter.serialize(["a_b": 1]) == nil)
        #expect(_FastJSONWriter.serialize(["a": Float(1)]) == nil)
        #expect(_FastJSONWriter.serialize(["a": Double.nan]) == nil)
        #expect(RecognitionJSON.line(["Text": "a", "b": 1]) == Self.foundation(["Text": "a", "b": 1]))
        #expect(RecognitionJSON.line(["a": Double.nan, "id": "x", "line": 3]).contains("could not be written"))
    }
}
