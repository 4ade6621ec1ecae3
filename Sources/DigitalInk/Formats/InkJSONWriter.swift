/// Writes the project JSON format and the stroke-array form as UTF-8 bytes.
///
/// Numbers are written in the shortest form that reads back to the same `Float`, without a
/// trailing `.0` for whole numbers, so reading and writing again gives identical bytes.
enum InkJSONWriter {
    /// The project JSON object. Compact output is a single line (fit for JSON Lines); pretty
    /// output puts each point on its own line. O(points).
    static func document(_ document: InkDocument, prettyPrinted: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + document.ink.pointCount * 32)
        let nl = prettyPrinted ? "\n" : ""
        let sp = prettyPrinted ? " " : ""
        func indent(_ level: Int) -> String { prettyPrinted ? String(repeating: "  ", count: level) : "" }

        out.append(contentsOf: "{\(nl)".utf8)
        var isFirstMember = true
        func beginMember(_ name: String) {
            if !isFirstMember { out.append(contentsOf: ",\(nl)".utf8) }
            isFirstMember = false
            out.append(contentsOf: "\(indent(1))\"\(name)\":\(sp)".utf8)
        }
        if let id = document.id {
            beginMember("id")
            appendString(id, to: &out)
        }
        beginMember("strokes")
        out.append(UInt8(ascii: "["))
        let pointOpen = Array("\(nl)\(indent(4)){\"x\":\(sp)".utf8)
        let yKey = Array(",\(sp)\"y\":\(sp)".utf8)
        let tKey = Array(",\(sp)\"t\":\(sp)".utf8)
        for (s, stroke) in document.ink.strokes.enumerated() {
            if s > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "\(nl)\(indent(2)){\(nl)\(indent(3))\"points\":\(sp)[".utf8)
            for (p, point) in stroke.points.enumerated() {
                if p > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: pointOpen)
                appendCoordinate(point.x, plus: document.origin.x, to: &out)
                out.append(contentsOf: yKey)
                appendCoordinate(point.y, plus: document.origin.y, to: &out)
                if let t = point.t {
                    out.append(contentsOf: tKey)
                    out.append(contentsOf: String(t).utf8)
                }
                out.append(UInt8(ascii: "}"))
            }
            if !stroke.points.isEmpty { out.append(contentsOf: "\(nl)\(indent(3))".utf8) }
            out.append(contentsOf: "]\(nl)\(indent(2))}".utf8)
        }
        if !document.ink.strokes.isEmpty { out.append(contentsOf: "\(nl)\(indent(1))".utf8) }
        out.append(UInt8(ascii: "]"))
        if let area = document.writingArea {
            beginMember("writingArea")
            out.append(contentsOf: "{\"width\":\(sp)".utf8)
            appendNumber(area.width, to: &out)
            out.append(contentsOf: ",\(sp)\"height\":\(sp)".utf8)
            appendNumber(area.height, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let preContext = document.preContext {
            beginMember("preContext")
            appendString(preContext, to: &out)
        }
        if let label = document.label {
            beginMember("label")
            appendString(label, to: &out)
        }
        out.append(contentsOf: "\(nl)}".utf8)
        return out
    }

    /// The stroke-array form: `[[[xs], [ys], [ts]], ...]`. A stroke gets its `ts` array only when
    /// every one of its points has a timestamp. O(points).
    static func strokeArrays(_ ink: Ink, origin: InkOrigin = .zero) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(16 + ink.pointCount * 20)
        for (s, stroke) in ink.strokes.enumerated() {
            if s > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "[[".utf8)
            for (i, p) in stroke.points.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendCoordinate(p.x, plus: origin.x, to: &out)
            }
            out.append(contentsOf: "],[".utf8)
            for (i, p) in stroke.points.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendCoordinate(p.y, plus: origin.y, to: &out)
            }
            out.append(UInt8(ascii: "]"))
            if !stroke.points.isEmpty, stroke.points.allSatisfy({ $0.t != nil }) {
                out.append(contentsOf: ",[".utf8)
                for (i, p) in stroke.points.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: "\(p.t!)".utf8)
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Appends a finite float in its shortest round-tripping form (`40`, `12.5`, `1e-05`).
    static func appendNumber(_ value: Float, to out: inout [UInt8]) {
        out.append(contentsOf: formatNumber(value).utf8)
    }

    /// Appends a coordinate measured from `origin` (see ``InkOrigin``): as ``appendNumber(_:to:)``
    /// when the origin is 0, otherwise the `Double` sum in its shortest form.
    static func appendCoordinate(_ value: Float, plus origin: Double, to out: inout [UInt8]) {
        out.append(contentsOf: formatCoordinate(value, plus: origin).utf8)
    }

    /// The text of a coordinate measured from `origin`; see ``appendCoordinate(_:plus:to:)``.
    static func formatCoordinate(_ value: Float, plus origin: Double) -> String {
        if origin == 0 { return formatNumber(value) }
        var text = (Double(value) + origin).description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The shortest text that reads back to `value`, without a trailing `.0`.
    static func formatNumber(_ value: Float) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Appends a JSON string literal, escaping quotes, backslashes and control characters.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in string.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
