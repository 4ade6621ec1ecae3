/// Checks the bytes of an InkML document before they reach `XMLParser`, which is not safe with
/// every input: an invalid UTF-8 sequence in an element or attribute name crashes Foundation's
/// `XMLParser` on Linux (it force-unwraps the name's decoding), and a DTD can declare entities
/// that expand without bound or name external resources.
///
/// The document must be UTF-8 (a UTF-8 byte order mark is allowed), declare no encoding other
/// than UTF-8 or ASCII, have no `<!DOCTYPE>` (hence no entity declarations), and no processing
/// instructions other than the XML declaration (one without data, `<?pi?>`, crashes Foundation's
/// `XMLParser` on Linux: found by the `fuzz-inkml` target).
enum InkMLPreflight {
    /// Throws ``DigitalInkError/malformedInput(source:line:field:reason:)`` for input `XMLParser`
    /// must not see. O(n), no allocation beyond the error.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DigitalInkError) {
        func failure(_ reason: String, at offset: Int?) -> DigitalInkError {
            .malformedInput(source: source, line: offset.map { line(of: $0, in: bytes) }, field: nil, reason: reason)
        }
        let n = bytes.count
        // Other Unicode encodings, told by their byte order mark or by how "<" is encoded.
        if n >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
            || (bytes[0] == 0x3C && bytes[1] == 0x00) || (bytes[0] == 0x00 && bytes[1] == 0x3C) || (bytes[0] == 0x00 && bytes[1] == 0x00) {
            throw failure("InkML must be encoded in UTF-8; this input looks like UTF-16 or UTF-32 (convert it to UTF-8)", at: nil)
        }
        if let bad = firstInvalidUTF8(bytes) {
            throw failure("invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at byte offset \(bad)); InkML must be encoded in UTF-8", at: bad)
        }
        var i = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        try checkProcessingInstructions(bytes, declarationAt: i, source: source)
        // The prolog: XML declaration, processing instructions, comments, whitespace, and no DTD.
        while i < n {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
                continue
            default: break
            }
            guard bytes[i] == UInt8(ascii: "<") else { return }  // not well-formed; XMLParser says so
            if starts(with: "<?", at: i, in: bytes) {
                let end = find("?>", from: i + 2, in: bytes) ?? n
                if starts(with: "<?xml", at: i, in: bytes), i + 5 < n, isSpace(bytes[i + 5]) {
                    if let encoding = declaredEncoding(bytes, from: i + 5, to: end) {
                        let lowered = encoding.lowercased()
                        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(lowered) else {
                            throw failure("unsupported encoding \"\(encoding)\" in the XML declaration; InkML must be encoded in UTF-8", at: i)
                        }
                    }
                }
                i = end + 2
            } else if starts(with: "<!--", at: i, in: bytes) {
                i = (find("-->", from: i + 4, in: bytes) ?? n) + 3
            } else if starts(with: "<!", at: i, in: bytes) {
                // <!DOCTYPE ...>, or an entity or other declaration out of place.
                throw failure(InkMLReader.doctypeReason, at: i)
            } else {
                return  // the root element
            }
        }
    }

    static let processingInstructionReason = "InkML with \"<?\" (a processing instruction) anywhere but its XML declaration is not accepted"

    /// No `<?` anywhere but the XML declaration: `<?xml` and a space at the very start (after a byte
    /// order mark), up to the first `?>`, with no `<` inside. Conservative on purpose: libxml2 recovers
    /// from some errors (an unclosed comment, say) and would still hand a processing instruction to
    /// `XMLParser`, so `<?` inside comments and CDATA sections is refused too. O(n).
    static func checkProcessingInstructions(_ bytes: UnsafeBufferPointer<UInt8>, declarationAt start: Int, source: String) throws(DigitalInkError) {
        let n = bytes.count
        var i = start
        if starts(with: "<?xml", at: i, in: bytes), i + 5 < n, isSpace(bytes[i + 5]), let end = find("?>", from: i + 2, in: bytes),
           find("<", from: i + 1, in: bytes).map({ $0 > end }) ?? true {
            i = end + 2  // the declaration
        }
        if let pi = find("<?", from: i, in: bytes) {
            throw .malformedInput(source: source, line: line(of: pi, in: bytes), field: nil, reason: processingInstructionReason)
        }
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A { line += 1 }
        return line
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (no
    /// overlong forms, surrogates or values above U+10FFFF), or nil. O(n).
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the range of the second byte
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + 1 < n, bytes[i + 1] >= low, bytes[i + 1] <= high else { return i + 1 < n ? i + 1 : i }
            for k in 2..<length {
                guard i + k < n, bytes[i + k] & 0xC0 == 0x80 else { return i + k < n ? i + k : i }
            }
            i += length
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func starts(with prefix: StaticString, at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where bytes[i + k] != p[k] { return false }
        return true
    }

    private static func find(_ needle: StaticString, from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = start
        while i < bytes.count {
            if starts(with: needle, at: i, in: bytes) { return i }
            i += 1
        }
        return nil
    }

    /// The value of the `encoding` pseudo-attribute of an XML declaration, or nil.
    private static func declaredEncoding(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String? {
        guard let at = find("encoding", from: start, in: UnsafeBufferPointer(rebasing: bytes[0..<min(end, bytes.count)])) else { return nil }
        var i = at + 8
        while i < end, isSpace(bytes[i]) { i += 1 }
        guard i < end, bytes[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        while i < end, isSpace(bytes[i]) { i += 1 }
        guard i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[i]
        i += 1
        let valueStart = i
        while i < end, bytes[i] != quote { i += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<i]), as: UTF8.self)
    }
}
