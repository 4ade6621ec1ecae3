import Foundation

/// A JSON writer for the answers ``RecognitionJSON`` builds, writing exactly what `JSONSerialization`
/// (sorted keys, slashes unescaped) writes for them, several times faster and without the bridging
/// to Foundation objects that made a batch's threads wait on each other.
///
/// It takes dictionaries with keys of lowercase ASCII letters (sorted byte by byte, which is how
/// `JSONSerialization` orders them too) and values that are `String`, `Int`, finite `Double`,
/// `Bool`, `NSNull`, `[Int]`, arrays and dictionaries of these. Anything else returns nil and the
/// caller uses `JSONSerialization`. Numbers as `JSONSerialization` writes them: a `Double`'s shortest
/// form (`description`) without a trailing `.0`.
enum _FastJSONWriter {
    static func serialize(_ object: [String: Any]) -> String? {
        var out = ""
        out.reserveCapacity(1024)
        return write(object, to: &out) ? out : nil
    }

    static func write(_ object: [String: Any], to out: inout String) -> Bool {
        var keys: [String] = []
        keys.reserveCapacity(object.count)
        for key in object.keys {
            guard !key.isEmpty, key.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return false }
            keys.append(key)
        }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        out.append("{")
        for (i, key) in keys.enumerated() {
            if i > 0 { out.append(",") }
            out.append("\"")
            out.append(key)
            out.append("\":")
            guard write(value: object[key]!, to: &out) else { return false }
        }
        out.append("}")
        return true
    }

    // The value's exact type decides, compared by identity: a cast of `Any` to a collection type
    // tries Foundation's bridging first, which cost more than the writing itself.
    static let stringType = ObjectIdentifier(String.self), intType = ObjectIdentifier(Int.self)
    static let doubleType = ObjectIdentifier(Double.self), boolType = ObjectIdentifier(Bool.self)
    static let nullType = ObjectIdentifier(NSNull.self), intsType = ObjectIdentifier([Int].self)
    static let objectType = ObjectIdentifier([String: Any].self), objectsType = ObjectIdentifier([[String: Any]].self)
    static let anysType = ObjectIdentifier([Any].self)

    static func write(value: Any, to out: inout String) -> Bool {
        let t = ObjectIdentifier(type(of: value))
        if t == stringType {
            writeString(value as! String, to: &out)
        } else if t == intType {
            out.append(String(value as! Int))
        } else if t == doubleType {
            let d = value as! Double
            guard d.isFinite else { return false }
            var s = d.description
            if s.hasSuffix(".0") { s.removeLast(2) }
            out.append(s)
        } else if t == boolType {
            out.append(value as! Bool ? "true" : "false")
        } else if t == nullType {
            out.append("null")
        } else if t == intsType {
            out.append("[")
            for (i, v) in (value as! [Int]).enumerated() {
                if i > 0 { out.append(",") }
                out.append(String(v))
            }
            out.append("]")
        } else if t == objectType {
            return write(value as! [String: Any], to: &out)
        } else if t == objectsType {
            out.append("[")
            for (i, v) in (value as! [[String: Any]]).enumerated() {
                if i > 0 { out.append(",") }
                guard write(v, to: &out) else { return false }
            }
            out.append("]")
        } else if t == anysType {
            out.append("[")
            for (i, v) in (value as! [Any]).enumerated() {
                if i > 0 { out.append(",") }
                guard write(value: v, to: &out) else { return false }
            }
            out.append("]")
        } else {
            return false
        }
        return true
    }

    /// A JSON string: `"` and `\` escaped, control characters as \b \f \n \r \t or \u00xx, everything
    /// else (non-ASCII and U+007F included) as it is.
    static func writeString(_ s: String, to out: inout String) {
        out.append("\"")
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C { needsEscape = true; break }
        if !needsEscape {
            out.append(s)
        } else {
            for scalar in s.unicodeScalars {
                switch scalar.value {
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0x08: out.append("\\b")
                case 0x0C: out.append("\\f")
                case 0x0A: out.append("\\n")
                case 0x0D: out.append("\\r")
                case 0x09: out.append("\\t")
                case 0..<0x20:
                    let hex = String(scalar.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}
