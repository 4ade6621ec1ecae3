import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
@_spi(Engine) @testable import DigitalInk

/// Hostile and unusual input for the format readers: bytes XMLParser must not see, DTDs, parser
/// error reporting, deep nesting, and coordinates far from 0.
@Suite("Format: hostile input and far coordinates")
struct FormatHardeningTests {
    // MARK: InkML bytes XMLParser must not see

    @Test func invalidUTF8InAnElementOrAttributeNameIsAnErrorWithItsLine() throws {
        // Before the check, these crashed inside Foundation's XMLParser.
        var element = Data("<ink>\n  <trace>1 2</trace>\n  <tr".utf8)
        element.append(0xFF)
        element.append(contentsOf: "ace>3 4</trace>\n</ink>".utf8)
        let e = malformedInput { try InkDocument(inkML: element, source: "bad.inkml") }
        #expect(e?.source == "bad.inkml")
        #expect(e?.line == 3)
        #expect(e?.reason.hasPrefix("invalid UTF-8 (byte 0xFF") == true)

        var attribute = Data("<ink>\n<trace a".utf8)
        attribute.append(contentsOf: [0xC3, 0x28])  // a lead byte without its continuation
        attribute.append(contentsOf: "b=\"1\">1 2</trace></ink>".utf8)
        let a = malformedInput { try InkDocument(inkML: attribute) }
        #expect(a?.line == 2)
        #expect(a?.reason.hasPrefix("invalid UTF-8 (byte 0x28") == true)

        // Overlong forms and encoded surrogates are not UTF-8 either.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            var data = Data("<ink><annotation type=\"truth\">".utf8)
            data.append(contentsOf: bad)
            data.append(contentsOf: "</annotation></ink>".utf8)
            #expect(malformedInput { try InkDocument(inkML: data) }?.reason.hasPrefix("invalid UTF-8") == true)
        }
        // Valid multi-byte text, and a UTF-8 byte order mark, are fine.
        var good = Data([0xEF, 0xBB, 0xBF])
        good.append(contentsOf: "<ink><annotation type=\"truth\">wörld 👋</annotation><trace>1 2</trace></ink>".utf8)
        #expect(try InkDocument(inkML: good).label == "wörld 👋")
    }

    @Test func onlyUTF8OrASCIIEncodingsAreAccepted() throws {
        let body = "<ink><trace>1 2</trace></ink>"
        for declaration in [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<?xml version='1.0' encoding='us-ascii'?>"#, #"<?xml version="1.0"?>"#, ""] {
            #expect(try InkDocument(inkML: Data((declaration + "\n" + body).utf8)).ink.pointCount == 1)
        }
        let latin = malformedInput { try InkDocument(inkML: Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n\(body)".utf8)) }
        #expect(latin?.reason == "unsupported encoding \"ISO-8859-1\" in the XML declaration; InkML must be encoded in UTF-8")
        #expect(latin?.line == 1)
        // UTF-16, with or without a byte order mark.
        let utf16 = Data([0xFF, 0xFE]) + Data(body.data(using: .utf16LittleEndian)!)
        #expect(malformedInput { try InkDocument(inkML: utf16) }?.reason.hasPrefix("InkML must be encoded in UTF-8") == true)
        let utf16NoBOM = Data(body.data(using: .utf16BigEndian)!)
        #expect(malformedInput { try InkDocument(inkML: utf16NoBOM) }?.reason.hasPrefix("InkML must be encoded in UTF-8") == true)
    }

    @Test func doctypesAndEntityDeclarationsAreRejected() throws {
        let reason = "InkML with a DOCTYPE or entity declarations is not accepted"
        // An external entity: before, the document read as an ink without traces.
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE ink [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <ink><annotation type="truth">&x;</annotation><trace>1 2</trace></ink>
            """
        let e = malformedInput { try InkDocument(inkML: Data(external.utf8), source: "x.inkml") }
        #expect(e == MalformedInput(source: "x.inkml", line: 2, field: nil, reason: reason))
        // Internal entities (the start of a "billion laughs"), a DTD after a comment, an external DTD.
        let laughs = "<!DOCTYPE ink [<!ENTITY a \"ha\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><ink><trace>&b;</trace></ink>"
        #expect(malformedInput { try InkDocument(inkML: Data(laughs.utf8)) }?.reason == reason)
        let afterComment = "<?xml version=\"1.0\"?>\n<!-- <ink> -->\n\n\n<!DOCTYPE ink SYSTEM \"ink.dtd\"><ink/>"
        #expect(malformedInput { try InkDocument(inkML: Data(afterComment.utf8)) } == MalformedInput(source: "<input>", line: 5, field: nil, reason: reason))
        // "<!DOCTYPE" inside a comment or in text is not a DTD.
        let inComment = "<!-- <!DOCTYPE x> --><ink><annotation type=\"truth\">&lt;!DOCTYPE</annotation></ink>"
        #expect((try? InkDocument(inkML: Data(inComment.utf8)))?.label == "<!DOCTYPE")
    }

    // MARK: XML parser errors

    @Test func parserErrorsAreReportedWithLibxml2Numbers() throws {
        // A mismatched end tag is libxml2's XML_ERR_TAG_NAME_MISMATCH, 76 (which was reported as
        // "standaloneValueError", XMLParser.ErrorCode(rawValue: 76) on Linux).
        let mismatch = malformedInput { try InkDocument(inkML: Data("<ink>\n  <trace>1 2</trace>\n  <trace>3 4</traec>\n</ink>".utf8)) }
        #expect(mismatch?.reason == "malformed XML: opening and ending tag mismatch (libxml2 error 76)")
        #expect(mismatch?.line == 3)
        // An attribute without a value: XML_ERR_ATTRIBUTE_WITHOUT_VALUE, 41.
        let noValue = malformedInput { try InkDocument(inkML: Data("<ink>\n<trace type>1 2</trace></ink>".utf8)) }
        #expect(noValue?.reason.hasPrefix("malformed XML") == true)
        #expect(noValue?.reason.contains("(libxml2 error ") == true)
        #expect(noValue?.line == 2)
        // Content after the root element: XML_ERR_DOCUMENT_END, 5.
        let extra = malformedInput { try InkDocument(inkML: Data("<ink/>\n<ink/>".utf8)) }
        #expect(extra?.reason == "malformed XML: extra content at the end of the document (libxml2 error 5)")

        #expect(InkMLReader.xmlErrorReason(NSError(domain: XMLParser.errorDomain, code: 76)) == "malformed XML: opening and ending tag mismatch (libxml2 error 76)")
        #expect(InkMLReader.xmlErrorReason(NSError(domain: XMLParser.errorDomain, code: 97)) == "malformed XML (libxml2 error 97)")
        #expect(InkMLReader.xmlErrorReason(nil) == "malformed XML")
    }

    // MARK: Deep nesting

    @Test func aMillionNestedBracketsAreATypedErrorInEveryJSONReader() throws {
        let deep = String(repeating: "[", count: 1_000_000)
        let unknownMember = malformedInput { try json(#"{"strokes":[],"extra":"# + deep) }
        #expect(unknownMember?.reason.hasPrefix("nesting deeper than 512 levels") == true)
        #expect(malformedInput { try json(#"{"strokes":"# + deep) }?.field == "strokes[0][0][0]")
        #expect(malformedInput { try InkDocument(strokeArrays: Data(deep.utf8)) } != nil)
        #expect(malformedInput { try InkDocument.read(Data(deep.utf8)) } != nil)
        let entries = Array(InkBatchReader(data: Data(#"{"id":"deep","x":\#(deep)"#.utf8)))
        #expect(entries.count == 1)
        #expect(entries.first?.error != nil)
        #expect(entries.first?.id == "deep")
    }

    @Test func deeplyNestedInkMLIsATypedError() throws {
        let depth = 1_000_000
        let text = "<ink>" + String(repeating: "<traceGroup>", count: depth) + String(repeating: "</traceGroup>", count: depth) + "</ink>"
        let e = malformedInput { try InkDocument(inkML: Data(text.utf8)) }
        #expect(e != nil)
        // 600 levels: within libxml2's own limit where it has one, beyond the reader's 512.
        let six = "<ink>" + String(repeating: "<traceGroup>", count: 600) + String(repeating: "</traceGroup>", count: 600) + "</ink>"
        #expect(malformedInput { try InkDocument(inkML: Data(six.utf8)) } != nil)
    }

    // MARK: Coordinates far from 0

    /// "hello"-like strokes with fractional coordinates.
    static let strokes: [[(x: Double, y: Double, t: Int64)]] = [
        [(10.25, 40.5, 0), (12.125, 38.75, 16), (15.5, 35.0625, 33)],
        [(20.75, 40.25, 60), (21.5, 50.125, 76), (0.375, 0.5, 90)],
    ]

    static func offsetText(_ value: Double, _ offset: Double) -> String {
        let v = value + offset
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The ink of ``strokes`` moved by `offset`, in each format.
    static func formats(offset: Double) -> [(name: String, read: () throws -> InkDocument)] {
        let o = { (v: Double) in offsetText(v, offset) }
        let objects = "{\"strokes\":[" + strokes.map { s in
            "{\"points\":[" + s.map { "{\"x\":\(o($0.x)),\"y\":\(o($0.y)),\"t\":\($0.t)}" }.joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]}"
        let pointArrays = "{\"strokes\":[" + strokes.map { s in
            "[" + s.map { "[\(o($0.x)),\(o($0.y)),\($0.t)]" }.joined(separator: ",") + "]"
        }.joined(separator: ",") + "]}"
        let arrays = "[" + strokes.map { s in
            "[[" + s.map { o($0.x) }.joined(separator: ",") + "],[" + s.map { o($0.y) }.joined(separator: ",") + "],[" + s.map { "\($0.t)" }.joined(separator: ",") + "]]"
        }.joined(separator: ",") + "]"
        let quickDraw = "{\"word\":\"hello\",\"drawing\":" + arrays + "}"
        let inkML = "<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"T\"/></traceFormat>" + strokes.map { s in
            "<trace>" + s.map { "\(o($0.x)) \(o($0.y)) \($0.t)" }.joined(separator: ", ") + "</trace>"
        }.joined() + "</ink>"
        // Differences: explicit first point, then first differences.
        let inkMLDiff = "<ink>" + strokes.map { s in
            var parts = ["\(o(s[0].x)) \(o(s[0].y))"]
            for k in 1..<s.count { parts.append("'\(s[k].x - s[k - 1].x) '\(s[k].y - s[k - 1].y)") }
            return "<trace>" + parts.joined(separator: ", ") + "</trace>"
        }.joined() + "</ink>"
        return [
            ("JSON objects", { try InkDocument(jsonData: Data(objects.utf8)) }),
            ("JSON point arrays", { try InkDocument(jsonData: Data(pointArrays.utf8)) }),
            ("Quick Draw", { try InkDocument(jsonData: Data(quickDraw.utf8)) }),
            ("stroke arrays", { try InkDocument(strokeArrays: Data(arrays.utf8)) }),
            ("JSON Lines", { try InkBatchReader(data: Data((objects + "\n").utf8)).map { $0 }[0].result.get() }),
            ("InkML", { try InkDocument(inkML: Data(inkML.utf8)) }),
            ("InkML differences", { try InkDocument(inkML: Data(inkMLDiff.utf8)) }),
            ("Codable", { try JSONDecoder().decode(InkDocument.self, from: Data(objects.utf8)) }),
        ]
    }

    @Test func anInkFarFromZeroKeepsItsShapeInEveryFormat() throws {
        let near = Self.formats(offset: 0)
        let far = Self.formats(offset: 1e9)
        for (n, f) in zip(near, far) {
            let a = try n.read()
            let b = try f.read()
            #expect(a.origin == .zero, "\(n.name)")
            // The rounded minimum: (0.375, 0.5) + 1e9.
            #expect(b.origin == InkOrigin(x: 1_000_000_000, y: 1_000_000_001), "\(f.name)")
            let pa = a.ink.strokes.flatMap(\.points), pb = b.ink.strokes.flatMap(\.points)
            #expect(pa.count == 6 && pb.count == 6, "\(f.name)")
            let shift = (x: Float(b.origin.x - 1e9), y: Float(b.origin.y - 1e9))
            for (p, q) in zip(pa, pb) {
                if abs(p.x - shift.x - q.x) > 1e-3 || abs(p.y - shift.y - q.y) > 1e-3 || p.t != q.t {
                    Issue.record("\(f.name): \(q) should be \(p)")
                }
            }
        }
    }

    @Test func theOriginIsTheRoundedMinimumAndOnlyFarInksMove() throws {
        // Only y is far from 0: y moves to its rounded minimum, x stays as it is.
        let doc = try json(#"{"strokes":[[[-3.5,70000.75],[2,80000.25]]]}"#)
        #expect(doc.origin == InkOrigin(x: 0, y: 70001))
        #expect(doc.ink.strokes[0].points == [StrokePoint(x: -3.5, y: -0.25), StrokePoint(x: 2, y: 9999.25)])
        // An ink spanning the whole Float range cannot move without overflowing: it stays.
        let wide = try json(#"{"strokes":[[[-3e38,-3e38],[3e38,3e38]]]}"#)
        #expect(wide.origin == .zero)
        #expect(wide.ink.strokes[0].points[1] == StrokePoint(x: 3e38, y: 3e38))
        // Large but not all beyond 2^16 (one point near 0): not moved.
        let spread = try json(#"{"strokes":[[[100000,100000],[1,1]]]}"#)
        #expect(spread.origin == .zero)
        #expect(spread.ink.strokes[0].points[0] == StrokePoint(x: 100000, y: 100000))
        // Negative and far.
        let negative = try json(#"{"strokes":[[[-1e9,-2e9],[-999999999.5,-2e9]]]}"#)
        #expect(negative.origin == InkOrigin(x: -1e9, y: -2e9))
        #expect(negative.ink.strokes[0].points[1] == StrokePoint(x: 0.5, y: 0))
        // An empty ink has no origin.
        #expect(try json(#"{"strokes":[]}"#).origin == .zero)
    }

    @Test func writersAddTheOriginBack() throws {
        let far = try InkDocument(jsonData: Data(#"{"id":"f","strokes":[[[1000000010.25,2000000040.5,0],[1000000012.125,2000000038.75,16]]]}"#.utf8))
        #expect(far.origin == InkOrigin(x: 1000000010, y: 2000000039))
        let json = try far.jsonData()
        #expect(String(decoding: json, as: UTF8.self) == #"{"id":"f","strokes":[{"points":[{"x":1000000010.25,"y":2000000040.5,"t":0},{"x":1000000012.125,"y":2000000038.75,"t":16}]}]}"#)
        #expect(try InkDocument(jsonData: json) == far)
        #expect(try InkDocument(jsonData: far.jsonData(prettyPrinted: true)) == far)
        let inkML = try far.inkMLData()
        #expect(String(decoding: inkML, as: UTF8.self).contains("<trace>1000000010.25 2000000040.5 0, 1000000012.125 2000000038.75 16</trace>"))
        #expect(try InkDocument(inkML: inkML) == far)
        let arrays = try far.strokeArraysData()
        #expect(String(decoding: arrays, as: UTF8.self) == "[[[1000000010.25,1000000012.125],[2000000040.5,2000000038.75],[0,16]]]")
        #expect(try InkDocument(strokeArrays: arrays).ink == far.ink)
        let coded = try JSONDecoder().decode(InkDocument.self, from: JSONEncoder().encode(far))
        #expect(coded == far)
    }

    @Test func inksWithOrdinaryCoordinatesAreNotMoved() throws {
        // The sample document, whose y reaches 3.4e38, reads back byte-identical in each format.
        let json = try sampleDocument.jsonData()
        let back = try InkDocument(jsonData: json)
        #expect(back.origin == .zero)
        #expect(try back.jsonData() == json)
        let inkML = try sampleDocument.inkMLData()
        #expect(try InkDocument(inkML: inkML).inkMLData() == inkML)
        let arrays = try sampleDocument.strokeArraysData()
        #expect(try InkDocument(strokeArrays: arrays).strokeArraysData() == arrays)
    }
}
