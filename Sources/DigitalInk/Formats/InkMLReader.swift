import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads W3C InkML (https://www.w3.org/TR/InkML/) into an ``InkDocument`` with `XMLParser`.
///
/// The bytes are checked first (``InkMLPreflight``): UTF-8 only, no DTD. External entities are
/// never resolved, and elements may nest at most ``maxDepth`` deep.
///
/// What is read:
/// - `<trace>` elements, in document order, with `<traceGroup>` nesting flattened; traces inside
///   `<definitions>` (referenced by `<traceView>`) and traces with `type="penUp"` are not ink and
///   are skipped.
/// - Trace formats: `<traceFormat>` with `<channel name="X|Y|T|...">` and
///   `<intermittentChannels>`, declared directly, inside `<context>` or `<inkSource>`, or in
///   `<definitions>` and referenced with `contextRef`, `traceFormatRef` or `inkSourceRef`. The
///   default format is X Y. Channels other than X, Y and T are read and dropped. T is in
///   milliseconds unless its `units` say `s` or `us`; it is rounded to whole milliseconds.
/// - Trace values: plain numbers, `T`/`F` for booleans, `?` (unknown) for T and intermittent
///   channels, and the difference prefixes `!` (explicit), `'` (first difference) and `"` (second
///   difference), which stay in force for their channel until changed. Values may be juxtaposed
///   when unambiguous (`10-5`). `*` and hexadecimal values are rejected with a clear error.
/// - Annotations that are direct children of `<ink>`: `type="truth"` (the label), and the
///   project's own `id`, `preContext` and `writingArea` ("width height"); the `documentID` attribute
///   of `<ink>` is the id when no id annotation is given. Other annotations are ignored.
final class InkMLReader: NSObject, XMLParserDelegate {
    /// One channel of a trace format.
    struct Channel {
        var name: String
        var intermittent: Bool
        /// Multiplier that turns a T value into milliseconds.
        var timeScale: Double = 1
    }

    /// The channels of a trace format, in order.
    struct TraceFormat {
        var channels: [Channel]
        static let `default` = TraceFormat(channels: [Channel(name: "X", intermittent: false), Channel(name: "Y", intermittent: false)])
    }

    /// A `<context>` or `<inkSource>` being read.
    private struct Holder {
        var id: String?
        var format: TraceFormat?
        var reference: TraceFormat?
    }

    private enum DifferenceMode {
        case explicit, first, second
    }

    private let source: String
    private var parser: XMLParser?
    private var error: DigitalInkError?

    private var elementStack: [String] = []
    private var definitionsDepth = 0
    private var formatsByID: [String: TraceFormat] = [:]
    private var contextsByID: [String: TraceFormat] = [:]
    private var inkSourcesByID: [String: TraceFormat] = [:]
    private var currentFormat = TraceFormat.default
    private var contextStack: [Holder] = []
    private var inkSourceStack: [Holder] = []
    private var traceGroupFormats: [TraceFormat?] = []

    private var buildingFormat: (id: String?, channels: [Channel])?
    private var inIntermittentChannels = false

    private var traceText: String?
    private var traceFormatForText = TraceFormat.default
    private var traceLine = 1
    private var traceIndex = 0
    private var annotationText: String?
    private var annotationType: String?

    private var strokes: [Stroke] = []
    /// The `Double` coordinates of `strokes`, for inks far from 0 (see ``InkOrigin``).
    private var wide = WideCoordinates()
    private var id: String?
    private var documentID: String?
    private var label: String?
    private var preContext: String?
    private var writingArea: WritingArea?
    private var sawRoot = false
    private var xmlError: (line: Int, error: any Error)?

    /// The deepest element nesting accepted.
    static let maxDepth = 512

    /// The reason given for a document with a DOCTYPE or entity declarations.
    static let doctypeReason = "InkML with a DOCTYPE or entity declarations is not accepted"

    private init(source: String) {
        self.source = source
    }

    /// Parses an InkML document and validates the ink. O(n) in the size of the input.
    static func read(_ data: Data, source: String) throws(DigitalInkError) -> InkDocument {
        // XMLParser is only given bytes it can take safely: valid UTF-8, a UTF-8 or ASCII
        // encoding declaration, and no DTD (no entities to expand, nothing external to load).
        let preflight = data.withUnsafeBytes { raw in
            Result { () throws(DigitalInkError) in try InkMLPreflight.check(raw.bindMemory(to: UInt8.self), source: source) }
        }
        try preflight.get()
        let reader = InkMLReader(source: source)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.delegate = reader
        reader.parser = parser
        let ok = parser.parse()
        if let error = reader.error { throw error }
        // parse() can return true after reporting an error (an unclosed element at the end).
        if !ok || reader.xmlError != nil || parser.parserError != nil {
            let reportedLine = reader.xmlError?.line ?? parser.lineNumber
            let line = reportedLine > 0 ? reportedLine : nil
            throw .malformedInput(source: source, line: line, field: nil,
                                  reason: xmlErrorReason(reader.xmlError?.error ?? parser.parserError))
        }
        guard reader.sawRoot else {
            throw .malformedInput(source: source, line: nil, field: nil, reason: "no <ink> element")
        }
        let origin = reader.wide.translate(&reader.strokes)
        let document = InkDocument(
            id: reader.id ?? reader.documentID, ink: Ink(strokes: reader.strokes),
            writingArea: reader.writingArea, preContext: reader.preContext, label: reader.label, origin: origin)
        try document.validate()
        return document
    }

    /// "malformed XML: what (libxml2 error N)" for a parser error.
    ///
    /// `XMLParser` reports libxml2's own error numbers (`xmlParserErrors` in libxml2's
    /// `xmlerror.h`). On Linux they do not match the raw values of `XMLParser.ErrorCode` (there,
    /// libxml2's 76, a tag name mismatch, is `.standaloneValueError`, and 5, extra content at the
    /// end, is `.invalidHexCharacterRefError`), so the number is given as it is, with a
    /// description for the errors malformed ink files commonly have.
    static func xmlErrorReason(_ error: (any Error)?) -> String {
        guard let error else { return "malformed XML" }
        let e = error as NSError
        guard e.domain == XMLParser.errorDomain else { return "malformed XML (\(e.domain) error \(e.code))" }
        if let description = libxml2Errors[e.code] {
            return "malformed XML: \(description) (libxml2 error \(e.code))"
        }
        return "malformed XML (libxml2 error \(e.code))"
    }

    /// Descriptions of libxml2 parser error numbers (`xmlParserErrors`, stable across libxml2
    /// versions).
    static let libxml2Errors: [Int: String] = [
        1: "internal error (such as nesting too deep)",
        2: "out of memory",
        3: "start tag expected, '<' not found",
        4: "the document is empty",
        5: "extra content at the end of the document",
        6: "invalid hexadecimal character reference",
        7: "invalid decimal character reference",
        8: "invalid character reference",
        9: "invalid character",
        23: "entity reference without ';'",
        26: "undeclared entity",
        27: "undeclared entity",
        31: "unknown encoding",
        32: "unsupported encoding",
        38: "'<' in an attribute value",
        39: "attribute value expected",
        40: "attribute value not finished",
        41: "attribute without a value",
        42: "attribute given twice",
        45: "comment not finished",
        57: "XML declaration not finished",
        63: "CDATA section not finished",
        65: "space required",
        68: "name expected",
        73: "'>' expected",
        74: "'</' expected",
        75: "'=' expected",
        76: "opening and ending tag mismatch",
        77: "premature end of data in tag",
        81: "invalid encoding",
        85: "elements not well balanced",
        86: "extra content",
        89: "entity reference loop",
        201: "undefined namespace prefix",
        203: "attribute given twice",
    ]

    // MARK: Errors

    private func fail(_ reason: String, field: String? = nil, line: Int? = nil) {
        guard error == nil else { return }
        error = .malformedInput(source: source, line: line ?? parser?.lineNumber, field: field, reason: reason)
        parser?.abortParsing()
    }

    // MARK: Names and references

    /// The element name without its namespace prefix.
    private static func localName(_ name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    /// `#id` or `id` to `id`.
    private static func reference(_ value: String) -> String {
        let trimmed = value.trimmingASCIISpaces()
        return trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
    }

    private func lookUp(_ ref: String, in table: [String: TraceFormat], kind: String) -> TraceFormat? {
        if let format = table[InkMLReader.reference(ref)] { return format }
        fail("unknown \(kind) reference \"\(ref)\"")
        return nil
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        guard error == nil else { return }
        let name = InkMLReader.localName(elementName)
        let parent = elementStack.last
        elementStack.append(name)
        guard elementStack.count <= InkMLReader.maxDepth else {
            fail("elements nested deeper than \(InkMLReader.maxDepth) levels")
            return
        }
        if elementStack.count == 1 {
            guard name == "ink" else {
                fail("the root element is <\(elementName)>, expected <ink>")
                return
            }
            sawRoot = true
            documentID = attributes["documentID"]
            return
        }
        switch name {
        case "definitions":
            definitionsDepth += 1
        case "traceFormat":
            buildingFormat = (attributes["xml:id"], [])
        case "intermittentChannels":
            inIntermittentChannels = true
        case "channel":
            guard buildingFormat != nil else { return }  // channels of other elements (e.g. channelProperties)
            guard let channelName = attributes["name"], !channelName.isEmpty else {
                fail("a <channel> has no name")
                return
            }
            var channel = Channel(name: channelName, intermittent: inIntermittentChannels)
            if channelName.uppercased() == "T" {
                switch (attributes["units"] ?? "ms").trimmingASCIISpaces().lowercased() {
                case "ms", "": channel.timeScale = 1
                case "s": channel.timeScale = 1000
                case "us", "µs": channel.timeScale = 0.001
                case let units:
                    fail("unsupported units \"\(units)\" for channel T; expected ms, s or us")
                    return
                }
            }
            buildingFormat!.channels.append(channel)
        case "context":
            var holder = Holder(id: attributes["xml:id"])
            if let ref = attributes["traceFormatRef"] {
                holder.reference = lookUp(ref, in: formatsByID, kind: "traceFormat")
            } else if let ref = attributes["inkSourceRef"] {
                holder.reference = lookUp(ref, in: inkSourcesByID, kind: "inkSource")
            } else if let ref = attributes["contextRef"] {
                holder.reference = lookUp(ref, in: contextsByID, kind: "context")
            }
            contextStack.append(holder)
        case "inkSource":
            inkSourceStack.append(Holder(id: attributes["xml:id"]))
        case "traceGroup":
            if let ref = attributes["contextRef"] {
                traceGroupFormats.append(lookUp(ref, in: contextsByID, kind: "context"))
            } else {
                traceGroupFormats.append(nil)
            }
        case "trace":
            guard definitionsDepth == 0 else { return }
            traceIndex += 1
            if attributes["type"] == "penUp" { return }
            var format = traceGroupFormats.compactMap { $0 }.last ?? currentFormat
            if let ref = attributes["contextRef"] {
                guard let f = lookUp(ref, in: contextsByID, kind: "context") else { return }
                format = f
            }
            traceFormatForText = format
            traceLine = parser.lineNumber
            traceText = ""
        case "annotation":
            if parent == "ink" {
                annotationType = attributes["type"] ?? ""
                annotationText = ""
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if traceText != nil { traceText! += string }
        if annotationText != nil { annotationText! += string }
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        self.parser(parser, foundCharacters: whitespaceString)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard error == nil else { return }
        let name = elementStack.popLast() ?? InkMLReader.localName(elementName)
        switch name {
        case "definitions":
            definitionsDepth -= 1
        case "intermittentChannels":
            inIntermittentChannels = false
        case "traceFormat":
            guard let building = buildingFormat else { return }
            buildingFormat = nil
            let format = TraceFormat(channels: building.channels)
            if let id = building.id { formatsByID[id] = format }
            if !inkSourceStack.isEmpty {
                inkSourceStack[inkSourceStack.count - 1].format = format
            } else if !contextStack.isEmpty {
                contextStack[contextStack.count - 1].format = format
            } else if definitionsDepth == 0 {
                currentFormat = format
            }
        case "inkSource":
            guard let holder = inkSourceStack.popLast() else { return }
            if let id = holder.id, let format = holder.format { inkSourcesByID[id] = format }
            if !contextStack.isEmpty, contextStack[contextStack.count - 1].format == nil {
                contextStack[contextStack.count - 1].format = holder.format
            }
        case "context":
            guard let holder = contextStack.popLast() else { return }
            let format = holder.format ?? holder.reference ?? currentFormat
            if let id = holder.id { contextsByID[id] = format }
            if definitionsDepth == 0, contextStack.isEmpty { currentFormat = format }
        case "traceGroup":
            _ = traceGroupFormats.popLast()
        case "trace":
            guard let text = traceText else { return }
            traceText = nil
            if let stroke = parseTrace(text, format: traceFormatForText, index: traceIndex - 1) {
                strokes.append(stroke)
            }
        case "annotation":
            guard let text = annotationText, let type = annotationType else { return }
            annotationText = nil
            annotationType = nil
            switch type {
            case "truth": label = text
            case "id": id = text
            case "preContext": preContext = text
            case "writingArea":
                let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                guard parts.count == 2, let w = Float(String(parts[0])), let h = Float(String(parts[1])) else {
                    fail("the writingArea annotation must hold two numbers, \"width height\"", field: "annotation[writingArea]")
                    return
                }
                writingArea = WritingArea(width: w, height: h)
            default: break
            }
        default:
            break
        }
    }

    // A DTD never gets here (the preflight check rejects it); should one slip through, its
    // declarations stop the parse and nothing is resolved.

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?, notationName: String?) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String, type: String?, defaultValue: String?) {
        fail(InkMLReader.doctypeReason)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(InkMLReader.doctypeReason)
        return nil
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // Reported after parse() returns; an error of our own takes precedence. The line is taken
        // here: once parse() returns, the parser's line may have moved on.
        if xmlError == nil { xmlError = (parser.lineNumber, parseError) }
    }

    // MARK: Traces

    /// Parses the text of one trace into a stroke; nil after reporting an error.
    private func parseTrace(_ text: String, format: TraceFormat, index: Int) -> Stroke? {
        let field = "trace[\(index)]"
        let channels = format.channels
        guard let xIndex = channels.firstIndex(where: { $0.name.uppercased() == "X" && !$0.intermittent }),
              let yIndex = channels.firstIndex(where: { $0.name.uppercased() == "Y" && !$0.intermittent }) else {
            fail("the trace format (channels \(channels.map(\.name).joined(separator: " "))) has no X or no Y channel", field: field, line: traceLine)
            return nil
        }
        let tIndex = channels.firstIndex(where: { $0.name.uppercased() == "T" })
        let regularCount = channels.count(where: { !$0.intermittent })
        let channelList = channels.map(\.name).joined(separator: " ")

        var modes = [DifferenceMode](repeating: .explicit, count: channels.count)
        var last = [Double?](repeating: nil, count: channels.count)
        var velocity = [Double](repeating: 0, count: channels.count)
        // The same, from X and Y read as Double (the others read as Double above).
        var lastWide = [Double?](repeating: nil, count: channels.count)
        var velocityWide = [Double](repeating: 0, count: channels.count)
        var valuesWide: [Double?] = []
        var pointsWide: [(x: Double, y: Double)] = []
        var points: [StrokePoint] = []

        let bytes = Array(text.utf8)
        var i = 0
        var pointIndex = 0
        var lineOffset = 0
        var values: [Double?] = []
        values.reserveCapacity(channels.count)

        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        // A trace with only whitespace is an empty stroke.
        if bytes.allSatisfy(isSpace) { return Stroke(points: []) }

        while i <= bytes.count {
            // Read one point: values up to the next comma or the end.
            values.removeAll(keepingCapacity: true)
            valuesWide.removeAll(keepingCapacity: true)
            let pointLine = traceLine + lineOffset
            while true {
                while i < bytes.count, isSpace(bytes[i]) {
                    if bytes[i] == 0x0A { lineOffset += 1 }
                    i += 1
                }
                if i >= bytes.count || bytes[i] == UInt8(ascii: ",") { break }
                let channel = values.count
                guard channel < channels.count else {
                    fail("point \(pointIndex) has more than \(channels.count) values; the trace format has channels \(channelList)", field: field, line: pointLine)
                    return nil
                }
                // Optional difference prefix.
                var prefix: DifferenceMode?
                switch bytes[i] {
                case UInt8(ascii: "!"): prefix = .explicit
                case UInt8(ascii: "'"): prefix = .first
                case UInt8(ascii: "\""): prefix = .second
                default: break
                }
                if prefix != nil {
                    i += 1
                    while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                }
                guard i < bytes.count else {
                    fail("point \(pointIndex) ends after a difference prefix", field: field, line: pointLine)
                    return nil
                }
                if let prefix { modes[channel] = prefix }
                let c = bytes[i]
                var raw: Double?
                var rawWide: Double?
                var isExplicitLiteral = false
                if c == UInt8(ascii: "T") || c == UInt8(ascii: "F") {
                    raw = c == UInt8(ascii: "T") ? 1 : 0
                    isExplicitLiteral = true
                    i += 1
                } else if c == UInt8(ascii: "?") {
                    raw = nil
                    i += 1
                } else if c == UInt8(ascii: "*") || c == UInt8(ascii: "#") {
                    fail("point \(pointIndex): '\(Character(Unicode.Scalar(c)))' values are not supported", field: field, line: pointLine)
                    return nil
                } else {
                    let start = i
                    if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
                    var digits = 0
                    while i < bytes.count, isDigit(bytes[i]) { i += 1; digits += 1 }
                    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                        i += 1
                        while i < bytes.count, isDigit(bytes[i]) { i += 1; digits += 1 }
                    }
                    if digits > 0, i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                        var j = i + 1
                        if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
                        if j < bytes.count, isDigit(bytes[j]) {
                            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
                            i = j
                        }
                    }
                    guard digits > 0 else {
                        let shown = String(decoding: bytes[start..<min(bytes.count, start + 12)].prefix { !isSpace($0) && $0 != UInt8(ascii: ",") }, as: UTF8.self)
                        fail("point \(pointIndex): \"\(shown)\" is not a number", field: field, line: pointLine)
                        return nil
                    }
                    let token = String(decoding: bytes[start..<i], as: UTF8.self)
                    // Coordinates read as Float directly so that written values read back exactly.
                    let asFloat = channel == xIndex || channel == yIndex ? Float(token).map(Double.init) : nil
                    guard let value = asFloat ?? Double(token), value.isFinite, let wideValue = Double(token), wideValue.isFinite else {
                        fail("point \(pointIndex): the number \(token) is out of range", field: field, line: pointLine)
                        return nil
                    }
                    raw = value
                    rawWide = wideValue
                }
                values.append(raw)
                valuesWide.append(rawWide ?? raw)
                // Apply the difference mode.
                guard let r = raw, let rw = rawWide ?? raw else { continue }
                let mode = isExplicitLiteral ? .explicit : modes[channel]
                switch mode {
                case .explicit:
                    if let l = last[channel], let lw = lastWide[channel] {
                        velocity[channel] = r - l
                        velocityWide[channel] = rw - lw
                    }
                    last[channel] = r
                    lastWide[channel] = rw
                case .first:
                    guard let l = last[channel], let lw = lastWide[channel] else {
                        fail("point \(pointIndex): a difference needs a previous value in the trace", field: field, line: pointLine)
                        return nil
                    }
                    velocity[channel] = r
                    last[channel] = l + r
                    velocityWide[channel] = rw
                    lastWide[channel] = lw + rw
                case .second:
                    guard let l = last[channel], let lw = lastWide[channel] else {
                        fail("point \(pointIndex): a difference needs a previous value in the trace", field: field, line: pointLine)
                        return nil
                    }
                    velocity[channel] += r
                    last[channel] = l + velocity[channel]
                    velocityWide[channel] += rw
                    lastWide[channel] = lw + velocityWide[channel]
                }
                values[channel] = last[channel]
                valuesWide[channel] = lastWide[channel]
            }
            guard values.count >= regularCount else {
                let reason = values.isEmpty
                    ? "point \(pointIndex) is empty"
                    : "point \(pointIndex) has \(values.count) value\(values.count == 1 ? "" : "s"); the trace format has channels \(channelList)"
                fail(reason, field: field, line: pointLine)
                return nil
            }
            // (A malformed format can list regular channels after intermittent ones: X or Y may then
            // lie past the values a point has. A fuzz finding.)
            guard xIndex < values.count, yIndex < values.count else {
                fail("point \(pointIndex) has \(values.count) value\(values.count == 1 ? "" : "s"), too few to reach X and Y in the trace format (channels \(channelList))",
                     field: field, line: pointLine)
                return nil
            }
            guard let x = values[xIndex], let y = values[yIndex] else {
                fail("point \(pointIndex): X and Y must be known ('?' is only allowed for other channels)", field: field, line: pointLine)
                return nil
            }
            let fx = Float(x), fy = Float(y)
            guard fx.isFinite, fy.isFinite else {
                fail("point \(pointIndex): coordinate out of the 32-bit float range", field: field, line: pointLine)
                return nil
            }
            var t: Int64?
            if let tIndex, tIndex < values.count, let tv = values[tIndex] {
                let ms = (tv * channels[tIndex].timeScale).rounded()
                guard abs(ms) < 9.2e18 else {
                    fail("point \(pointIndex): T value out of range", field: field, line: pointLine)
                    return nil
                }
                t = Int64(ms)
            }
            points.append(StrokePoint(x: fx, y: fy, t: t))
            pointsWide.append((valuesWide[xIndex] ?? x, valuesWide[yIndex] ?? y))
            pointIndex += 1
            if i >= bytes.count { break }
            i += 1  // the comma
        }
        for p in pointsWide { wide.add(x: p.x, y: p.y) }
        return Stroke(points: points)
    }
}
