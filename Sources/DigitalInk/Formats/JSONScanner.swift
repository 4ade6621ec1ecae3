/// A strict, allocation-light JSON tokenizer over UTF-8 bytes that reports errors with a line,
/// a column and the field path being read.
///
/// The ink readers drive it directly from their schema (no intermediate tree), which keeps
/// multi-megabyte inputs fast and lets every error name the exact field, such as
/// `strokes[2].points[5].x`. It follows RFC 8259: no comments, no trailing commas, no `NaN` or
/// `Infinity` literals, no leading zeros.
///
/// The bytes must stay valid while the scanner is used (it is created inside
/// `withUnsafeBufferPointer`).
struct JSONScanner {
    /// One step of a field path.
    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// A number token as it appears in the input.
    struct NumberToken {
        var start: Int
        var end: Int
        /// True when the token has neither a fraction nor an exponent.
        var isInteger: Bool
    }

    /// The deepest nesting accepted while skipping unknown values. Deeper input is a syntax error
    /// ("nesting deeper than 512 levels"), so hostile input cannot exhaust the stack; the schema
    /// readers themselves nest only as deep as the format.
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    let source: String
    /// The line number reported for the first line of `bytes` (1 for a whole document; the file's
    /// line number for one line of a JSON Lines file).
    let firstLine: Int
    private(set) var index: Int = 0
    /// The field being read; rendered only when an error is thrown.
    var path: [PathComponent] = []

    init(bytes: UnsafeBufferPointer<UInt8>, source: String, firstLine: Int = 1) {
        self.bytes = bytes
        self.source = source
        self.firstLine = firstLine
        // A UTF-8 byte order mark is tolerated at the very start.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Moves to byte offset `offset` (for callers that locate values themselves).
    mutating func seek(to offset: Int) {
        index = Swift.max(0, Swift.min(offset, bytes.count))
    }

    // MARK: Errors

    /// The current field path, such as `strokes[2].points[5].x`, or nil at the top level.
    var fieldPath: String? {
        if path.isEmpty { return nil }
        var s = ""
        for component in path {
            switch component {
            case .key(let k):
                if !s.isEmpty { s += "." }
                s += k
            case .index(let i):
                s += "[\(i)]"
            }
        }
        return s
    }

    /// The 1-based line and column of a byte offset. O(offset); used only for errors.
    func location(of offset: Int) -> (line: Int, column: Int) {
        var line = firstLine
        var lineStart = 0
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        // Count characters, not bytes, for the column.
        var column = 1
        i = lineStart
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }

    /// An error about the value at the current field (a type or range problem).
    func fieldError(_ reason: String, at offset: Int? = nil) -> DigitalInkError {
        .malformedInput(source: source, line: location(of: offset ?? index).line, field: fieldPath, reason: reason)
    }

    /// An error about the JSON syntax itself; the reason names the column.
    func syntaxError(_ reason: String, at offset: Int? = nil) -> DigitalInkError {
        let loc = location(of: offset ?? index)
        return .malformedInput(source: source, line: loc.line, field: fieldPath, reason: "\(reason) at column \(loc.column)")
    }

    // MARK: Whitespace and structure

    var isAtEnd: Bool { index >= bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, or nil at the end of input.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// A short description of the value that starts at the current position, for type errors.
    mutating func describeNextValue() -> String {
        guard let c = peek() else { return "the end of the input" }
        switch c {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return "'\(Character(Unicode.Scalar(c)))'"
        }
    }

    /// Requires the end of the input (only whitespace left).
    mutating func expectEnd(hint: String = "") throws(DigitalInkError) {
        skipWhitespace()
        if index < bytes.count {
            path = []
            throw syntaxError("unexpected content after the JSON value" + hint)
        }
    }

    /// Consumes `{`; throws a type error naming `expected` otherwise.
    mutating func beginObject(_ expected: String = "an object") throws(DigitalInkError) {
        guard peek() == UInt8(ascii: "{") else { throw try typeError(expected: expected) }
        index += 1
    }

    /// Consumes `[`; throws a type error naming `expected` otherwise.
    mutating func beginArray(_ expected: String = "an array") throws(DigitalInkError) {
        guard peek() == UInt8(ascii: "[") else { throw try typeError(expected: expected) }
        index += 1
    }

    /// Reads the next member name of an object opened with ``beginObject(_:)`` and consumes the
    /// colon after it; returns nil (after consuming `}`) when the object ends.
    mutating func nextKey(isFirst: inout Bool) throws(DigitalInkError) -> String? {
        guard let c = peek() else { throw syntaxError("unterminated object") }
        if c == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        if !isFirst {
            guard c == UInt8(ascii: ",") else { throw syntaxError("expected ',' or '}' in object") }
            index += 1
            guard peek() == UInt8(ascii: "\"") else {
                throw syntaxError(peek() == UInt8(ascii: "}") ? "trailing comma in object" : "expected a member name in quotes")
            }
        } else if c != UInt8(ascii: "\"") {
            throw syntaxError("expected a member name in quotes or '}'")
        }
        isFirst = false
        let key = try readString()
        guard peek() == UInt8(ascii: ":") else { throw syntaxError("expected ':' after member name \"\(key)\"") }
        index += 1
        return key
    }

    /// Moves to the next element of an array opened with ``beginArray(_:)``; returns false (after
    /// consuming `]`) when the array ends.
    mutating func nextElement(isFirst: inout Bool) throws(DigitalInkError) -> Bool {
        guard let c = peek() else { throw syntaxError("unterminated array") }
        if c == UInt8(ascii: "]") {
            index += 1
            return false
        }
        if !isFirst {
            guard c == UInt8(ascii: ",") else { throw syntaxError("expected ',' or ']' in array") }
            index += 1
            if peek() == UInt8(ascii: "]") { throw syntaxError("trailing comma in array") }
        }
        isFirst = false
        return true
    }

    /// Consumes `null` if it is next; returns whether it did.
    mutating func consumeNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), matchLiteral("null") else { return false }
        index += 4
        return true
    }

    private func matchLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard index + n <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[index + k] != p[k] { return false }
        // The literal must not run into a following identifier character.
        if index + n < bytes.count {
            let next = bytes[index + n]
            if (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z")) || (next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z")) {
                return false
            }
        }
        return true
    }

    // MARK: Type errors

    /// Builds the error for a value of the wrong type at the current position. Strings and bare
    /// literals that spell NaN or infinity get a message saying so. Syntax errors found while
    /// looking at the value are thrown instead.
    mutating func typeError(expected: String) throws(DigitalInkError) -> DigitalInkError {
        guard let c = peek() else { return syntaxError("expected \(expected), found the end of the input") }
        let start = index
        if isNonFiniteLiteral() {
            return syntaxError("NaN and Infinity are not valid JSON numbers; values must be finite")
        }
        switch c {
        case UInt8(ascii: "\""):
            let s = try readString()
            index = start
            let lowered = s.trimmingASCIISpaces().lowercased()
            if ["nan", "-nan", "+nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity"].contains(lowered) {
                return fieldError("expected \(expected), found the string \"\(s)\": NaN and infinite values are not allowed")
            }
            return fieldError("expected \(expected), found a string")
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if c == UInt8(ascii: "t") && !matchLiteral("true") || c == UInt8(ascii: "f") && !matchLiteral("false")
                || c == UInt8(ascii: "n") && !matchLiteral("null") {
                return syntaxError("invalid literal")
            }
            return fieldError("expected \(expected), found \(describeNextValue())")
        default:
            return syntaxError("unexpected character \(describeNextValue()) where \(expected) was expected")
        }
    }

    /// Whether the input at the current position spells `NaN`, `Infinity` or `-Infinity` (or a
    /// common variant), which JSON does not allow.
    private func isNonFiniteLiteral() -> Bool {
        var i = index
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var word: [UInt8] = []
        while i < bytes.count, word.count < 9, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") {
            word.append(bytes[i] | 0x20)
            i += 1
        }
        let text = String(decoding: word, as: UTF8.self)
        return text == "nan" || text == "inf" || text == "infinity"
    }

    // MARK: Strings

    /// Reads a string value (the current byte must be `"`), decoding escapes. O(length).
    mutating func readString() throws(DigitalInkError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw try typeError(expected: "a string") }
        let open = index
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw syntaxError("unescaped control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw syntaxError("unterminated string", at: open) }
        // Slow path: decode escapes into a byte buffer.
        var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw syntaxError("unescaped control character in string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                index += 1
                continue
            }
            let escapeStart = index
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4(escapeStart: escapeStart)
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw syntaxError("unpaired surrogate in \\u escape", at: escapeStart)
                    }
                    index += 2
                    let low = try readHex4(escapeStart: escapeStart)
                    guard low >= 0xDC00 && low < 0xE000 else { throw syntaxError("unpaired surrogate in \\u escape", at: escapeStart) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw syntaxError("unpaired surrogate in \\u escape", at: escapeStart)
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw syntaxError("invalid escape sequence in string", at: escapeStart)
            }
        }
        throw syntaxError("unterminated string", at: open)
    }

    private mutating func readHex4(escapeStart: Int) throws(DigitalInkError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntaxError("incomplete \\u escape", at: escapeStart) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let h = bytes[index]
            let d: UInt8
            switch h {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = h - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = h - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = h - UInt8(ascii: "A") + 10
            default: throw syntaxError("invalid \\u escape", at: escapeStart)
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }

    // MARK: Numbers

    /// Reads a number token following the JSON grammar. Throws a type error naming `expected`
    /// when the next value is not a number.
    mutating func readNumberToken(expected: String = "a number") throws(DigitalInkError) -> NumberToken {
        guard let c = peek(), c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) else {
            throw try typeError(expected: expected)
        }
        if c == UInt8(ascii: "-"), isNonFiniteLiteral() {
            throw syntaxError("NaN and Infinity are not valid JSON numbers; values must be finite")
        }
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw syntaxError("invalid number (leading zero)", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("invalid number (no digit after '.')", at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("invalid number (bad exponent)", at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count {
            let b = bytes[index]
            if isDigit(b) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || b == UInt8(ascii: ".") {
                throw syntaxError("invalid number", at: start)
            }
        }
        return NumberToken(start: start, end: index, isInteger: isInteger)
    }

    private static let powersOfTen: [Float] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// The text of a token.
    func text(of token: NumberToken) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// Reads a finite number as a `Float`, correctly rounded. Values that overflow a 32-bit float
    /// (such as `1e999` or `1e39`) are rejected.
    mutating func readFloat() throws(DigitalInkError) -> Float {
        let token = try readNumberToken(expected: "a number")
        if let fast = fastFloat(token) { return fast }
        let text = text(of: token)
        guard let value = Float(text), value.isFinite else {
            throw fieldError("the number \(text) is out of range: values must be finite 32-bit floats", at: token.start)
        }
        return value
    }

    /// Reads a coordinate: the number as a correctly rounded `Float` (as ``readFloat()`` does,
    /// rejecting values outside the 32-bit range) and as a `Double`, which keeps the precision an
    /// ink far from 0 needs (see ``InkOrigin``).
    mutating func readCoordinate() throws(DigitalInkError) -> (float: Float, double: Double) {
        let token = try readNumberToken(expected: "a number")
        if let fast = fastFloat(token), let wide = fastDouble(token) { return (fast, wide) }
        let text = text(of: token)
        guard let value = Float(text), value.isFinite, let wide = Double(text), wide.isFinite else {
            throw fieldError("the number \(text) is out of range: values must be finite 32-bit floats", at: token.start)
        }
        return (value, wide)
    }

    private static let doublePowersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    /// The digits of a short token without an exponent (a mantissa of at most 7 significant digits
    /// and at most 10 fraction digits, both exact in a `Float` and a `Double`), or nil.
    @inline(__always)
    private func shortDecimal(_ token: NumberToken) -> (mantissa: UInt32, fractionDigits: Int, negative: Bool)? {
        var i = token.start
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt32 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while i < token.end {
            let b = bytes[i]
            if b == UInt8(ascii: ".") {
                inFraction = true
            } else if isDigit(b) {
                mantissa = mantissa &* 10 &+ UInt32(b - UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
                if inFraction { fractionDigits += 1 }
                if digits > 7 || fractionDigits > 10 { return nil }
            } else {
                return nil  // exponent
            }
            i += 1
        }
        return (mantissa, fractionDigits, negative)
    }

    /// The `Double` counterpart of ``fastFloat(_:)``, under the same conditions.
    private func fastDouble(_ token: NumberToken) -> Double? {
        guard let d = shortDecimal(token) else { return nil }
        let value = Double(d.mantissa) / JSONScanner.doublePowersOfTen[d.fractionDigits]
        return d.negative ? -value : value
    }

    /// Exact decimal-to-float conversion for short tokens without an exponent: the mantissa and
    /// the power of ten are both exact floats, so one IEEE division rounds correctly.
    private func fastFloat(_ token: NumberToken) -> Float? {
        guard let d = shortDecimal(token) else { return nil }
        let value = Float(d.mantissa) / JSONScanner.powersOfTen[d.fractionDigits]
        return d.negative ? -value : value
    }

    /// Reads an integer that fits in `Int64`. Tokens with a fraction or exponent are accepted when
    /// their value is a whole number below 2^53 (such as `1e3`); other values are rejected.
    mutating func readInt64(what: String = "an integer") throws(DigitalInkError) -> Int64 {
        let token = try readNumberToken(expected: what)
        if token.isInteger, token.end - token.start < 19 {
            // Fewer than 19 characters: at most 18 digits, which cannot overflow.
            var i = token.start
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var v: Int64 = 0
            while i < token.end {
                v = v * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            return negative ? -v : v
        }
        let text = text(of: token)
        if token.isInteger {
            guard let v = Int64(text) else { throw fieldError("the integer \(text) is out of the 64-bit range", at: token.start) }
            return v
        }
        guard let d = Double(text), d.isFinite else {
            throw fieldError("the number \(text) is out of range: expected \(what)", at: token.start)
        }
        guard d == d.rounded(), abs(d) <= 9_007_199_254_740_992 else {
            throw fieldError("expected \(what), found the non-integral number \(text)", at: token.start)
        }
        return Int64(d)
    }

    // MARK: Skipping

    /// Skips one value of any type, checking its syntax. Nesting is limited to ``maxDepth``.
    mutating func skipValue(depth: Int = 0) throws(DigitalInkError) {
        guard depth < JSONScanner.maxDepth else { throw syntaxError("nesting deeper than \(JSONScanner.maxDepth) levels") }
        guard let c = peek() else { throw syntaxError("expected a value, found the end of the input") }
        switch c {
        case UInt8(ascii: "{"):
            index += 1
            var first = true
            while try nextKey(isFirst: &first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            var first = true
            while try nextElement(isFirst: &first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try readString()
        case UInt8(ascii: "t"):
            guard matchLiteral("true") else { throw syntaxError("invalid literal") }
            index += 4
        case UInt8(ascii: "f"):
            guard matchLiteral("false") else { throw syntaxError("invalid literal") }
            index += 5
        case UInt8(ascii: "n"):
            guard matchLiteral("null") else { throw syntaxError("invalid literal") }
            index += 4
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try readNumberToken()
        default:
            throw try typeError(expected: "a value")
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and newlines.
    func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
