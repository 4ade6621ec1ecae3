import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Format: project JSON")
struct FormatJSONTests {
    @Test func readsTheDocumentedExample() throws {
        let doc = try json("""
            {"strokes": [{"points": [{"x": 12.5, "y": 40, "t": 1000}, {"x": 13, "y": 41}]}, {"points": []}],
             "writingArea": {"width": 600, "height": 120}, "preContext": "hello", "id": "any string"}
            """)
        #expect(doc.id == "any string")
        #expect(doc.preContext == "hello")
        #expect(doc.label == nil)
        #expect(doc.writingArea == WritingArea(width: 600, height: 120))
        #expect(doc.ink == Ink(strokes: [
            Stroke(points: [StrokePoint(x: 12.5, y: 40, t: 1000), StrokePoint(x: 13, y: 41)]),
            Stroke(points: []),
        ]))
        #expect(doc.context == RecognitionContext(preContext: "hello", writingArea: WritingArea(width: 600, height: 120)))
    }

    @Test func optionalMembersMayBeAbsentOrNull() throws {
        let doc = try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": null}]}], "writingArea": null, "preContext": null, "id": null}"#)
        #expect(doc == InkDocument(ink: Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2)])])))
        #expect(doc.context == RecognitionContext())
    }

    @Test("a string \"text\" is the label where \"label\" is absent (inkrec adapt's pairs); label wins; any other text is ignored")
    func textIsTheLabelWhereLabelIsAbsent() throws {
        func label(_ json: String) throws -> String? { try InkDocument(jsonData: Data(json.utf8)).label }
        #expect(try label(#"{"strokes": [], "text": "hello"}"#) == "hello")
        #expect(try label(#"{"text": "a", "strokes": [], "label": "b"}"#) == "b")
        #expect(try label(#"{"label": "b", "strokes": [], "text": "a"}"#) == "b")
        #expect(try label(#"{"strokes": [], "text": {"candidates": []}}"#) == nil)
        #expect(try label(#"{"strokes": [], "text": null}"#) == nil)
    }

    @Test func emptyInkAndEmptyStrokesAreLegal() throws {
        #expect(try json(#"{"strokes": []}"#).ink == Ink(strokes: []))
        let doc = try json(#"{"strokes": [{"points": []}, {"points": []}]}"#)
        #expect(doc.ink.strokes.count == 2)
        #expect(doc.ink.isEmpty)
    }

    @Test func unknownKeysAreIgnoredAtEveryLevel() throws {
        let doc = try json("""
            {"version": 3, "meta": {"deep": [1, {"a": [true, false, null, "x\\u00e9"]}], "n": -1.5e-3},
             "strokes": [{"color": "red", "points": [{"x": 1, "y": 2, "pressure": 0.5, "extra": {"k": []}}]}],
             "writingArea": {"width": 10, "height": 20, "unit": "px"}}
            """)
        #expect(doc.ink == Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2)])]))
        #expect(doc.writingArea == WritingArea(width: 10, height: 20))
    }

    @Test func roundTripJSONToInkToJSON() throws {
        let data = try sampleDocument.jsonData()
        let read = try InkDocument(jsonData: data)
        #expect(read == sampleDocument)
        // Writing again gives identical bytes: numbers are written in their shortest exact form.
        #expect(try read.jsonData() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix(#"{"id":"sample/1 \"quoted\" & <tagged>","strokes":[{"points":[{"x":12.5,"y":40,"t":1000}"#))
    }

    @Test func prettyPrintedOutputReadsBack() throws {
        let data = try sampleDocument.jsonData(prettyPrinted: true)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\n      \"points\": [\n        {\"x\": 12.5, \"y\": 40, \"t\": 1000},"))
        #expect(try InkDocument(jsonData: data) == sampleDocument)
        let empty = InkDocument(ink: Ink(strokes: []))
        #expect(try InkDocument(jsonData: empty.jsonData(prettyPrinted: true)) == empty)
    }

    @Test func writerLeavesOutAbsentMembers() throws {
        let doc = InkDocument(ink: Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2.5)]), Stroke(points: [])]))
        #expect(String(decoding: try doc.jsonData(), as: UTF8.self) == #"{"strokes":[{"points":[{"x":1,"y":2.5}]},{"points":[]}]}"#)
    }

    @Test func codableUsesTheSameLayout() throws {
        let encoded = try JSONEncoder().encode(sampleDocument)
        #expect(try InkDocument(jsonData: encoded) == sampleDocument)
        let decoded = try JSONDecoder().decode(InkDocument.self, from: try sampleDocument.jsonData())
        #expect(decoded == sampleDocument)
        #expect(throws: DigitalInkError.invalidInk(.invalidWritingArea(width: 0, height: 5))) {
            try JSONDecoder().decode(InkDocument.self, from: Data(#"{"strokes":[],"writingArea":{"width":0,"height":5}}"#.utf8))
        }
    }

    @Test func stringEscapesAreDecoded() throws {
        let doc = try json(#"{"strokes": [], "preContext": "a\"b\\c\/d\n\t\u00e9\ud83d\udc4b", "id": "\u0041"}"#)
        #expect(doc.preContext == "a\"b\\c/d\n\té👋")
        #expect(doc.id == "A")
    }

    @Test func numericIdentifiersAreKeptAsWritten() throws {
        #expect(try json(#"{"strokes": [], "id": 5152802093400064}"#).id == "5152802093400064")
    }

    @Test func pointArraysAndBareStrokesAreAccepted() throws {
        let doc = try json(#"{"strokes": [[[1, 2, 0], [3, 4, 10]], [[5, 6]]], "label": "hi"}"#)
        #expect(doc.ink == Ink(strokes: [
            Stroke(points: [StrokePoint(x: 1, y: 2, t: 0), StrokePoint(x: 3, y: 4, t: 10)]),
            Stroke(points: [StrokePoint(x: 5, y: 6)]),
        ]))
        #expect(doc.label == "hi")
        let e = malformedInput { try json(#"{"strokes": [[[1, 2, 3, 4]]]}"#) }
        #expect(e?.field == "strokes[0][0]")
    }

    // MARK: Errors

    @Test func missingFieldsAreNamed() {
        #expect(malformedInput { try json(#"{"points": []}"#) }?.field == "strokes")
        let points = malformedInput { try json(#"{"strokes": [{"points": []}, {"dots": []}]}"#) }
        #expect(points?.field == "strokes[1].points")
        #expect(points?.reason == "missing required field")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": 2}, {"y": 2}]}]}"#) }?.field == "strokes[0].points[1].x")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 1}]}]}"#) }?.field == "strokes[0].points[0].y")
        #expect(malformedInput { try json(#"{"strokes": [], "writingArea": {"width": 1}}"#) }?.field == "writingArea.height")
    }

    @Test func wrongTypesAreNamed() {
        let x = malformedInput { try json(#"{"strokes": [{"points": [{"x": "12", "y": 2}]}]}"#) }
        #expect(x?.field == "strokes[0].points[0].x")
        #expect(x?.reason == "expected a number, found a string")
        let strokes = malformedInput { try json(#"{"strokes": 5}"#) }
        #expect(strokes?.field == "strokes")
        #expect(strokes?.reason == "expected an array of strokes, found a number")
        #expect(malformedInput { try json(#"{"strokes": [{"points": {}}]}"#) }?.reason == "expected an array of points, found an object")
        #expect(malformedInput { try json(#"{"strokes": [], "preContext": 7}"#) }?.field == "preContext")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [true]}]}"#) }?.reason == "expected a point object, found a boolean")
        #expect(malformedInput { try json(#"[1, 2]"#) }?.reason == "expected an ink object, found an array")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": null, "y": 1}]}]}"#) }?.reason == "expected a number, found null")
    }

    @Test func fieldPathNamesDeepIndices() {
        let points = (0..<6).map { #"{"x": \#($0), "y": 1}"# }.joined(separator: ", ")
        let bad = #"{"points": []}, {"points": [{"x": 1, "y": 2}]}, {"points": [\#(points), {"x": [], "y": 1}]}"#
        let e = malformedInput { try json(#"{"strokes": [\#(bad)]}"#) }
        #expect(e?.field == "strokes[2].points[6].x")
        #expect(e?.line == 1)
    }

    @Test func nanAndInfinityAreRejected() {
        let nanString = malformedInput { try json(#"{"strokes": [{"points": [{"x": "NaN", "y": 2}]}]}"#) }
        #expect(nanString?.field == "strokes[0].points[0].x")
        #expect(nanString?.reason.contains("NaN and infinite values are not allowed") == true)
        let infString = malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": "-Infinity"}]}]}"#) }
        #expect(infString?.field == "strokes[0].points[0].y")
        #expect(infString?.reason.contains("NaN and infinite values are not allowed") == true)
        for literal in ["NaN", "Infinity", "-Infinity"] {
            let e = malformedInput { try json(#"{"strokes": [{"points": [{"x": \#(literal), "y": 2}]}]}"#) }
            #expect(e?.field == "strokes[0].points[0].x")
            #expect(e?.reason.hasPrefix("NaN and Infinity are not valid JSON numbers") == true)
        }
        let huge = malformedInput { try json(#"{"strokes": [{"points": [{"x": 1e999, "y": 2}]}]}"#) }
        #expect(huge?.field == "strokes[0].points[0].x")
        #expect(huge?.reason.contains("out of range") == true)
        // Finite as a double but not as a 32-bit float.
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": -1e39}]}]}"#) }?.field == "strokes[0].points[0].y")
        #expect(malformedInput { try json(#"{"strokes": [], "writingArea": {"width": 1e400, "height": 1}}"#) }?.field == "writingArea.width")
    }

    @Test func timestampsMustBeIntegers() throws {
        let e = malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": 1000.5}]}]}"#) }
        #expect(e?.field == "strokes[0].points[0].t")
        #expect(e?.reason == "expected an integer timestamp in milliseconds, found the non-integral number 1000.5")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": "1000"}]}]}"#) }?.field == "strokes[0].points[0].t")
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": 99999999999999999999}]}]}"#) }?.reason.contains("64-bit") == true)
        // Whole numbers written with an exponent or a zero fraction are integers.
        let doc = try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": 1e3}, {"x": 1, "y": 2, "t": 2000.0}, {"x": 1, "y": 2, "t": 9223372036854775807}]}]}"#)
        #expect(doc.ink.strokes[0].points.map(\.t) == [1000, 2000, Int64.max])
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let e = malformedInput { try json("{\n  \"strokes\": [\n    {\"points\": [}\n  ]\n}", source: "a.json") }
        #expect(e?.source == "a.json")
        #expect(e?.line == 3)
        #expect(e?.field == "strokes[0].points[0]")
        #expect(e?.reason == "unexpected character '}' where a point object was expected at column 17")
        #expect(malformedInput { try json(#"{"strokes": [],}"#) }?.reason == "trailing comma in object at column 16")
        #expect(malformedInput { try json(#"{"strokes": [{"points": []} {"points": []}]}"#) }?.reason.hasPrefix("expected ',' or ']' in array") == true)
        #expect(malformedInput { try json(#"{"strokes": []"#) }?.reason.hasPrefix("unterminated object") == true)
        #expect(malformedInput { try json(#"{"strokes": [], "id": "abc}"#) }?.reason.hasPrefix("unterminated string") == true)
        #expect(malformedInput { try json(#"{"strokes": [{"points": [{"x": 01, "y": 1}]}]}"#) }?.reason.hasPrefix("invalid number") == true)
        #expect(malformedInput { try json("") }?.reason.hasPrefix("expected an ink object, found the end of the input") == true)
        #expect(malformedInput { try json("{\"strokes\": []}\n{\"strokes\": []}") }?.line == 2)
        #expect(malformedInput { try json(#"{"strokes": [], "x": tru}"#) }?.reason.hasPrefix("invalid literal") == true)
    }

    @Test func deepNestingInUnknownMembersIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(malformedInput { try json(#"{"strokes": [], "x": \#(deep)}"#) }?.reason.hasPrefix("nesting deeper than") == true)
    }

    @Test func invalidInkSurfacesAsInvalidInk() throws {
        // Timestamps going backwards are read as they are (they are not used); strict validation rejects them.
        let back = try json(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": 10}, {"x": 1, "y": 2, "t": 5}]}]}"#)
        #expect(throws: DigitalInkError.invalidInk(.decreasingTimestamp(stroke: 0, point: 1))) { try back.ink.validate(timestamps: .strict) }
        #expect(invalidInk { try json(#"{"strokes": [], "writingArea": {"width": 0, "height": 120}}"#) }
            == .invalidWritingArea(width: 0, height: 120))
        let tooMany = String(repeating: "[0,0],", count: Ink.maxPointCount) + "[0,0]"
        #expect(invalidInk { try json(#"{"strokes": [[\#(tooMany)]]}"#) }
            == .tooManyPoints(count: Ink.maxPointCount + 1, limit: Ink.maxPointCount))
    }

    @Test func writerRefusesWhatCannotBeReadBack() {
        let nan = InkDocument(ink: Ink(strokes: [Stroke(points: [StrokePoint(x: .nan, y: 1)])]))
        #expect(invalidInk { try nan.jsonData() } == .nonFiniteCoordinate(stroke: 0, point: 0))
        let area = InkDocument(ink: Ink(strokes: []), writingArea: WritingArea(width: .infinity, height: 1))
        #expect(invalidInk { try area.jsonData() } == .invalidWritingArea(width: .infinity, height: 1))
    }

    @Test func floatsRoundTripExactly() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var points: [StrokePoint] = []
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = Float(bitPattern: UInt32(truncatingIfNeeded: state >> 32) & 0x7F7F_FFFF)  // finite, positive
            let y = Float(Int32(truncatingIfNeeded: state)) / 977
            points.append(StrokePoint(x: x, y: -y, t: Int64(truncatingIfNeeded: state >> 1)))
        }
        points.sort { $0.t! < $1.t! }
        let doc = InkDocument(ink: Ink(strokes: [Stroke(points: points)]))
        #expect(try InkDocument(jsonData: doc.jsonData()) == doc)
    }
}
