/// Writes an ``InkDocument`` as W3C InkML.
///
/// The output declares its trace format in a `<context>` (X and Y as decimals, plus T as integer
/// milliseconds when every point of the ink has a timestamp), then one `<trace>` per stroke with
/// plain absolute values (with the document's ``InkDocument/origin`` added back). The id, label, pre-context and writing area become `<annotation>`
/// elements of types `id`, `truth`, `preContext` and `writingArea` ("width height").
enum InkMLWriter {
    /// The InkML namespace.
    static let namespace = "http://www.w3.org/2003/InkML"

    /// The document as UTF-8 InkML. O(points).
    static func write(_ document: InkDocument) -> [UInt8] {
        let ink = document.ink
        let withTime = ink.pointCount > 0 && ink.strokes.allSatisfy { $0.points.allSatisfy { $0.t != nil } }
        var out: [UInt8] = []
        out.reserveCapacity(512 + ink.pointCount * (withTime ? 24 : 14))
        func append(_ s: String) { out.append(contentsOf: s.utf8) }

        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append("<ink xmlns=\"\(namespace)\">\n")
        func annotation(_ type: String, _ text: String) {
            append("  <annotation type=\"\(type)\">")
            appendEscaped(text, to: &out)
            append("</annotation>\n")
        }
        if let id = document.id { annotation("id", id) }
        if let label = document.label { annotation("truth", label) }
        if let preContext = document.preContext { annotation("preContext", preContext) }
        if let area = document.writingArea {
            annotation("writingArea", "\(InkJSONWriter.formatNumber(area.width)) \(InkJSONWriter.formatNumber(area.height))")
        }
        append("  <context>\n    <traceFormat>\n")
        append("      <channel name=\"X\" type=\"decimal\"/>\n")
        append("      <channel name=\"Y\" type=\"decimal\"/>\n")
        if withTime { append("      <channel name=\"T\" type=\"integer\" units=\"ms\"/>\n") }
        append("    </traceFormat>\n  </context>\n")
        for stroke in ink.strokes {
            append("  <trace>")
            for (i, p) in stroke.points.enumerated() {
                if i > 0 { append(", ") }
                append(InkJSONWriter.formatCoordinate(p.x, plus: document.origin.x))
                out.append(UInt8(ascii: " "))
                append(InkJSONWriter.formatCoordinate(p.y, plus: document.origin.y))
                if withTime, let t = p.t {
                    out.append(UInt8(ascii: " "))
                    append(String(t))
                }
            }
            append("</trace>\n")
        }
        append("</ink>\n")
        return out
    }

    /// Appends text content with `&`, `<`, `>` escaped, carriage returns as `&#13;` (so that XML
    /// line-end normalization keeps them), and characters XML 1.0 cannot hold replaced by U+FFFD.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "<": out.append(contentsOf: "&lt;".utf8)
            case ">": out.append(contentsOf: "&gt;".utf8)
            case "\r": out.append(contentsOf: "&#13;".utf8)
            case "\t", "\n": out.append(UInt8(scalar.value))
            default:
                let v = scalar.value
                let allowed = v >= 0x20 && !(0xFFFE...0xFFFF).contains(v)
                out.append(contentsOf: String(allowed ? scalar : "\u{FFFD}").utf8)
            }
        }
    }
}
