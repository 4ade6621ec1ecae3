import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Format: InkML")
struct InkMLFormatTests {
    func inkML(_ text: String, source: String = "<input>") throws(DigitalInkError) -> InkDocument {
        try InkDocument(inkML: Data(text.utf8), source: source)
    }

    @Test func readsTracesWithDefaultFormat() throws {
        let doc = try inkML("""
            <ink xmlns="http://www.w3.org/2003/InkML">
              <trace>10 0, 9 14, 8 28.5</trace>
              <trace>
                -1.5 2e1
              </trace>
            </ink>
            """)
        #expect(doc.ink == Ink(strokes: [
            Stroke(points: [StrokePoint(x: 10, y: 0), StrokePoint(x: 9, y: 14), StrokePoint(x: 8, y: 28.5)]),
            Stroke(points: [StrokePoint(x: -1.5, y: 20)]),
        ]))
        #expect(doc.label == nil && doc.id == nil && doc.writingArea == nil && doc.preContext == nil)
    }

    @Test func readsTraceFormatWithTimeAndExtraChannels() throws {
        let doc = try inkML("""
            <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">
              <inkml:traceFormat>
                <inkml:channel name="T" type="integer"/>
                <inkml:channel name="X" type="decimal"/>
                <inkml:channel name="F" type="decimal"/>
                <inkml:channel name="Y" type="decimal"/>
                <inkml:channel name="B" type="boolean"/>
              </inkml:traceFormat>
              <inkml:trace>100 1 0.5 2 T, 116 3 0.6 4 F</inkml:trace>
            </inkml:ink>
            """)
        #expect(doc.ink == Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2, t: 100), StrokePoint(x: 3, y: 4, t: 116)])]))
    }

    @Test func flattensTraceGroupsInDocumentOrderAndReadsTheTopLevelTruth() throws {
        let doc = try inkML("""
            <ink xmlns="http://www.w3.org/2003/InkML" documentID="doc-7">
              <annotation type="truth">x+1</annotation>
              <trace>1 1</trace>
              <traceGroup>
                <annotation type="truth">x</annotation>
                <trace>2 2</trace>
                <traceGroup><trace>3 3</trace><trace>4 4</trace></traceGroup>
              </traceGroup>
              <trace>5 5</trace>
            </ink>
            """)
        #expect(doc.ink.strokes.map { $0.points[0].x } == [1, 2, 3, 4, 5])
        #expect(doc.label == "x+1")
        #expect(doc.id == "doc-7")
    }

    @Test func readsTheFixtureWithContextsInkSourcesAndSeconds() throws {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/formats/hello.inkml"))
        let doc = try InkDocument(inkML: Data(contentsOf: url))
        let expected = try InkDocument.read(contentsOf: #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/formats/hello.json")))
        #expect(doc.ink == expected.ink)
        #expect(doc.label == "hi")
    }

    @Test func differencePrefixesAreApplied() throws {
        // Explicit, then first differences (sticky), then second differences, then explicit again.
        let doc = try inkML("""
            <ink><trace>10 100, '1 '-2, 1 -2, "1 "0, 0 0, !50 !60, 7 8</trace></ink>
            """)
        let points = doc.ink.strokes[0].points.map { [$0.x, $0.y] }
        #expect(points == [[10, 100], [11, 98], [12, 96], [14, 94], [16, 92], [50, 60], [7, 8]])
        // Juxtaposed values.
        #expect(try inkML("<ink><trace>10-5,'3'4</trace></ink>").ink.strokes[0].points.map { [$0.x, $0.y] } == [[10, -5], [13, -1]])
    }

    @Test func unsupportedAndBadTraceValuesAreClearErrors() {
        let star = malformedInput { try inkML("<ink>\n<trace>1 2, * 3</trace></ink>") }
        #expect(star?.field == "trace[0]")
        #expect(star?.reason == "point 1: '*' values are not supported")
        #expect(star?.line == 2)
        let unknownXY = malformedInput { try inkML("<ink><trace>1 2</trace><trace>? 3</trace></ink>") }
        #expect(unknownXY?.field == "trace[1]")
        #expect(unknownXY?.reason.contains("X and Y must be known") == true)
        let count = malformedInput { try inkML("<ink><trace>1 2, 3</trace></ink>") }
        #expect(count?.reason == "point 1 has 1 value; the trace format has channels X Y")
        #expect(malformedInput { try inkML("<ink><trace>1 2 3</trace></ink>") }?.reason.hasPrefix("point 0 has more than 2 values") == true)
        #expect(malformedInput { try inkML("<ink><trace>1 2,</trace></ink>") }?.reason == "point 1 is empty")
        #expect(malformedInput { try inkML("<ink><trace>1 abc</trace></ink>") }?.reason == "point 0: \"abc\" is not a number")
        #expect(malformedInput { try inkML("<ink><trace>'1 2</trace></ink>") }?.reason.contains("needs a previous value") == true)
        #expect(malformedInput { try inkML("<ink><trace contextRef=\"#nope\">1 2</trace></ink>") }?.reason == "unknown context reference \"#nope\"")
        let noY = malformedInput { try inkML(#"<ink><traceFormat><channel name="X"/></traceFormat><trace>1</trace></ink>"#) }
        #expect(noY?.reason.contains("no X or no Y channel") == true)
        #expect(malformedInput { try inkML("<ink><trace>1 1e39</trace></ink>") }?.reason.contains("out of") == true)
    }

    @Test func malformedXMLReportsTheLine() {
        let e = malformedInput { try inkML("<ink>\n  <trace>1 2</trace>\n  <trace>3 4</traec>\n</ink>", source: "bad.inkml") }
        #expect(e?.source == "bad.inkml")
        #expect(e?.line == 3)
        #expect(e?.reason.hasPrefix("malformed XML") == true)
        #expect(malformedInput { try inkML("<svg><path/></svg>") }?.reason == "the root element is <svg>, expected <ink>")
        #expect(malformedInput { try inkML("") } != nil)
        // An element left open at the end of the input.
        let unclosed = malformedInput { try inkML("<ink>\n<traceGroup>\n<trace>1 2</trace>\n</ink>") }
        #expect(unclosed?.line == 4)
        #expect(unclosed?.reason.hasPrefix("malformed XML") == true)
    }

    @Test func emptyInkAndEmptyTracesAreLegal() throws {
        #expect(try inkML(#"<ink xmlns="http://www.w3.org/2003/InkML"/>"#).ink == Ink(strokes: []))
        #expect(try inkML("<ink><trace></trace><trace>  </trace></ink>").ink == Ink(strokes: [Stroke(points: []), Stroke(points: [])]))
    }

    @Test func skipsDefinitionTracesAndPenUpTraces() throws {
        let doc = try inkML("""
            <ink>
              <definitions><trace xml:id="t0">9 9</trace></definitions>
              <trace type="penUp">5 5</trace>
              <trace>1 1</trace>
              <traceView traceDataRef="#t0"/>
            </ink>
            """)
        #expect(doc.ink == Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 1)])]))
    }

    @Test func roundTripInkMLToInkToInkMLToInk() throws {
        let original = """
            <?xml version="1.0"?>
            <ink xmlns="http://www.w3.org/2003/InkML">
              <traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat>
              <trace>0.1 0.2 5, 1.75 -3 21</trace>
              <traceGroup><trace>100 200 40</trace></traceGroup>
              <trace></trace>
            </ink>
            """
        let first = try inkML(original)
        let written = try first.inkMLData()
        let second = try InkDocument(inkML: written)
        #expect(second == first)
        #expect(try second.inkMLData() == written)
        #expect(String(decoding: written, as: UTF8.self).contains(#"<channel name="T" type="integer" units="ms"/>"#))
        #expect(String(decoding: written, as: UTF8.self).contains("<trace>0.1 0.2 5, 1.75 -3 21</trace>"))
    }

    @Test func roundTripKeepsEveryMember() throws {
        let written = try sampleDocument.inkMLData()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#"<annotation type="truth">a &lt; b &amp;&amp; c</annotation>"#))
        #expect(try InkDocument(inkML: written) == sampleDocument)
    }

    @Test func annotationTextKeepsWhitespaceAndCarriageReturns() throws {
        for preContext in [" ", "a\r\nb ", "  tab\there\n", "x]]>&amp;"] {
            let doc = InkDocument(ink: Ink(strokes: []), preContext: preContext, label: preContext)
            #expect(try InkDocument(inkML: doc.inkMLData()) == doc)
        }
    }

    @Test func timestampsAreWrittenOnlyWhenEveryPointHasOne() throws {
        let doc = InkDocument(ink: Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2, t: 3), StrokePoint(x: 4, y: 5)])]))
        let text = String(decoding: try doc.inkMLData(), as: UTF8.self)
        #expect(!text.contains(#"name="T""#))
        #expect(try InkDocument(inkML: doc.inkMLData()).ink == Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 2), StrokePoint(x: 4, y: 5)])]))
    }

    @Test func timestampsGoingBackwardsAreReadAsTheyAre() throws {
        let doc = try inkML(#"<ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat><trace>1 1 9, 2 2 3</trace></ink>"#)
        #expect(doc.ink.strokes[0].points.map(\.t) == [9, 3])
        #expect(throws: DigitalInkError.invalidInk(.decreasingTimestamp(stroke: 0, point: 1))) { try doc.ink.validate(timestamps: .strict) }
    }
}
