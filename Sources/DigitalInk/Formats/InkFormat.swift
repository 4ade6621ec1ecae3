import Foundation

/// The ink file formats ``InkDocument`` reads, as told apart by ``detect(_:)``.
public enum InkFormat: String, Sendable, Hashable, CaseIterable {
    /// The project JSON object (`{"strokes": [...], ...}`); see ``InkDocument/init(jsonData:source:)``.
    case json
    /// The compact stroke-array form (`[[[xs], [ys], [ts]], ...]`); see
    /// ``InkDocument/init(strokeArrays:source:)``.
    case strokeArrays
    /// W3C InkML (`<ink ...>`); see ``InkDocument/init(inkML:source:)``.
    case inkML

    /// The format of `data`, judged by its first character after an optional byte order mark and
    /// whitespace: `{` is JSON, `[` the stroke-array form, `<` InkML. Nil when it is none of
    /// these (or the data is blank). O(leading whitespace).
    public static func detect(_ data: Data) -> InkFormat? {
        var bytes = data.makeIterator()
        var first = true
        while let b = bytes.next() {
            defer { first = false }
            if first, b == 0xEF {
                // Skip a UTF-8 byte order mark.
                guard bytes.next() == 0xBB, bytes.next() == 0xBF else { return nil }
                continue
            }
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"): return .json
            case UInt8(ascii: "["): return .strokeArrays
            case UInt8(ascii: "<"): return .inkML
            default: return nil
            }
        }
        return nil
    }
}
