import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Format: stroke arrays (Google handwriting input, Quick Draw)")
struct FormatStrokeArrayTests {
    func arrays(_ text: String) throws(DigitalInkError) -> InkDocument {
        try InkDocument(strokeArrays: Data(text.utf8))
    }

    @Test func readsStrokesWithAndWithoutTimestamps() throws {
        let doc = try arrays("[[[10, 12.5, 15], [40, 41, 43], [0, 16, 33]], [[20, 21], [40, 50]], [[], []]]")
        #expect(doc.ink == Ink(strokes: [
            Stroke(points: [StrokePoint(x: 10, y: 40, t: 0), StrokePoint(x: 12.5, y: 41, t: 16), StrokePoint(x: 15, y: 43, t: 33)]),
            Stroke(points: [StrokePoint(x: 20, y: 40), StrokePoint(x: 21, y: 50)]),
            Stroke(points: []),
        ]))
        #expect(try arrays("[]").ink == Ink(strokes: []))
    }

    @Test func lengthMismatchNamesTheStroke() {
        let e = malformedInput { try arrays("[[[1], [2]],\n [[1, 2], [3, 4]],\n [[1, 2, 3], [4, 5], [0, 1, 2]]]") }
        #expect(e?.field == "[2]")
        #expect(e?.line == 3)
        #expect(e?.reason == "stroke 2 has 3 x values, 2 y values and 3 t values; the lengths must agree")
        let t = malformedInput { try arrays("[[[1, 2], [3, 4], [0]]]") }
        #expect(t?.reason == "stroke 0 has 2 x values, 2 y values and 1 t values; the lengths must agree")
    }

    @Test func badShapesAndValuesAreNamed() {
        #expect(malformedInput { try arrays("[[[1, 2]]]") }?.reason == "stroke 0 has 1 array; expected [xs, ys] or [xs, ys, ts]")
        #expect(malformedInput { try arrays("[[[1], [2], [3], [4]]]") }?.field == "[0]")
        let value = malformedInput { try arrays(#"[[[1, 2], [3, "4"]]]"#) }
        #expect(value?.field == "[0][1][1]")
        #expect(value?.reason == "expected a number, found a string")
        #expect(malformedInput { try arrays("[[[1], [2], [0.5]]]") }?.field == "[0][2][0]")
        #expect(malformedInput { try arrays("[[[NaN], [2]]]") }?.field == "[0][0][0]")
        #expect(malformedInput { try arrays("[[1, 2]]") }?.reason == "expected an array of x values, found a number")
    }

    @Test func roundTrip() throws {
        let doc = InkDocument(ink: sampleDocument.ink)
        let data = try doc.strokeArraysData()
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("[[[12.5,13.25,-0.1],[40,41.125,1e-05],[1000,1016,1033]],"))
        #expect(try InkDocument(strokeArrays: data) == doc)
    }

    @Test func readsQuickDrawRecords() throws {
        let record = #"{"key_id":"5152802093400064","word":"cat","countrycode":"DE","recognized":true,"timestamp":"2017-03-01 20:41:36.70725 UTC","drawing":[[[0,10.5],[1,2],[0,30]],[[5],[6]]]}"#
        let doc = try InkDocument(jsonData: Data(record.utf8))
        #expect(doc.id == "5152802093400064")
        #expect(doc.label == "cat")
        #expect(doc.ink == Ink(strokes: [
            Stroke(points: [StrokePoint(x: 0, y: 1, t: 0), StrokePoint(x: 10.5, y: 2, t: 30)]),
            Stroke(points: [StrokePoint(x: 5, y: 6)]),
        ]))
        let e = malformedInput { try InkDocument(jsonData: Data(#"{"drawing":[[[0,1],[1]]]}"#.utf8)) }
        #expect(e?.field == "drawing[0]")
    }
}
