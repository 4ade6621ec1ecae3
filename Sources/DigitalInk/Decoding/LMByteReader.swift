import Foundation

/// A bounded little-endian reader over a language-model file: every read checks the bytes left and
/// throws ``DigitalInkError/modelCorrupt(file:reason:)`` naming the file and the offset, so a
/// truncated or malformed file never reads out of bounds.
struct LMByteReader {
    let bytes: [UInt8]
    let name: String
    private(set) var position = 0

    init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    var remaining: Int { bytes.count - position }

    func corrupt(_ reason: String) -> DigitalInkError { .modelCorrupt(file: name, reason: reason) }

    mutating func skip(_ count: Int) throws(DigitalInkError) {
        guard count >= 0, count <= remaining else { throw corrupt("truncated at byte \(position)") }
        position += count
    }

    mutating func u8() throws(DigitalInkError) -> UInt8 {
        guard remaining >= 1 else { throw corrupt("truncated at byte \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws(DigitalInkError) -> UInt16 {
        guard remaining >= 2 else { throw corrupt("truncated at byte \(position)") }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func u32() throws(DigitalInkError) -> UInt32 {
        guard remaining >= 4 else { throw corrupt("truncated at byte \(position)") }
        defer { position += 4 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
            | UInt32(bytes[position + 3]) << 24
    }

    mutating func f32() throws(DigitalInkError) -> Float { Float(bitPattern: try u32()) }

    /// `count` bytes, copied out as they are (1-byte codes and symbols).
    mutating func rawBytes(_ count: Int) throws(DigitalInkError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw corrupt("\(count) bytes do not fit at byte \(position)") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// `count` unsigned LEB128 numbers of at most three bytes each (values below 2²¹), read in one pass.
    mutating func varints(_ count: Int) throws(DigitalInkError) -> [Int] {
        guard count >= 0, count <= remaining else { throw corrupt("\(count) counts do not fit at byte \(position)") }
        var out = [Int](repeating: 0, count: count)
        var p = position
        let end = bytes.count
        for i in 0..<count {
            var value = 0
            var done = false
            for shift in stride(from: 0, to: 21, by: 7) {
                guard p < end else { throw corrupt("truncated at byte \(p)") }
                let b = bytes[p]
                p += 1
                value |= Int(b & 0x7F) << shift
                if b & 0x80 == 0 { done = true; break }
            }
            guard done else { throw corrupt("a count longer than 3 bytes at byte \(p - 3)") }
            out[i] = value
        }
        position = p
        return out
    }

    /// `count` unsigned integers of `width` bytes (1 or 2) each.
    mutating func codes(_ count: Int, width: Int) throws(DigitalInkError) -> [UInt16] {
        guard count >= 0, width == 1 || width == 2, count <= remaining / width else {
            throw corrupt("\(count) values of \(width) bytes do not fit at byte \(position)")
        }
        let start = position
        position += count * width
        return bytes.withUnsafeBufferPointer { b in
            [UInt16](unsafeUninitializedCapacity: count) { out, n in
                if width == 1 {
                    for i in 0..<count { out[i] = UInt16(b[start + i]) }
                } else {
                    for i in 0..<count { out[i] = UInt16(b[start + 2 * i]) | UInt16(b[start + 2 * i + 1]) << 8 }
                }
                n = count
            }
        }
    }
}
