import Foundation

/// The bytes of a saved ``WriterProfile`` (version 1), all integers and floats little-endian:
///
///     offset  size        field
///     0       8           magic "INKWP\0\0\1"
///     8       32          SHA-256 of the network's weights file
///     40      4 (u32)     rank r, 1 ... 64
///     44      4 (u32)     head inputs H, 1 ... 4096
///     48      4 (u32)     classes C, 1 ... 65536
///     52      4 (u32)     minimum pairs
///     56      8 (u64)     pairs learned
///     64      4·r·H       A (Float32, r × H, row-major)
///             4·C·r       B (Float32, C × r)
///             4·C         d (Float32)
///
/// Exactly that many bytes, at most ``WriterProfile/maxDataSize``, every float finite. Internal.
enum WriterProfileFormat {
    static let magic: [UInt8] = Array("INKWP".utf8) + [0, 0, 1]
    static let headerSize = 64

    static func encode(digest: String, minimumPairs: Int, pairsLearned: Int, adapter: HeadAdapter) -> Data {
        var out = Data(magic)
        var digestBytes = [UInt8](repeating: 0, count: 32)
        let hex = Array(digest.utf8)
        for i in 0..<min(32, hex.count / 2) {
            digestBytes[i] = UInt8(String(decoding: hex[(2 * i)..<(2 * i + 2)], as: UTF8.self), radix: 16) ?? 0
        }
        out.append(contentsOf: digestBytes)
        for v in [adapter.rank, adapter.inputs, adapter.classes, minimumPairs] { append(UInt32(v), to: &out) }
        append(UInt64(pairsLearned), to: &out)
        for f in adapter.a { append(f.bitPattern, to: &out) }
        for f in adapter.b { append(f.bitPattern, to: &out) }
        for f in adapter.d { append(f.bitPattern, to: &out) }
        return out
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout Data) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    struct Decoded {
        var digest: String
        var minimumPairs: Int
        var pairsLearned: Int
        var adapter: HeadAdapter
    }

    /// The fields of `data`; throws ``DigitalInkError/malformedInput(source:line:field:reason:)`` naming the
    /// field for anything but a well-formed profile.
    static func decode(_ data: Data) throws(DigitalInkError) -> Decoded {
        func bad(_ field: String, _ reason: String) -> DigitalInkError {
            .malformedInput(source: "writer profile", line: nil, field: field, reason: reason)
        }
        guard data.count <= WriterProfile.maxDataSize else {
            throw bad("size", "\(data.count) bytes, more than \(WriterProfile.maxDataSize)")
        }
        guard data.count >= headerSize else { throw bad("size", "\(data.count) bytes, shorter than the \(headerSize)-byte header") }
        let bytes = [UInt8](data)
        guard Array(bytes[0..<8]) == magic else { throw bad("magic", "not a writer profile (or another version)") }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        let digest = bytes[8..<40].map { String(format: "%02x", $0) }.joined()
        let rank = u32(40), inputs = u32(44), classes = u32(48), minimumPairs = u32(52)
        let learned = u64(56)
        guard (1...64).contains(rank) else { throw bad("rank", "\(rank) is outside 1...64") }
        guard (1...4096).contains(inputs) else { throw bad("inputs", "\(inputs) is outside 1...4096") }
        guard (1...65536).contains(classes) else { throw bad("classes", "\(classes) is outside 1...65536") }
        guard learned <= UInt64(Int32.max) else { throw bad("pairsLearned", "\(learned) is out of range") }
        let floats = rank * inputs + classes * rank + classes
        guard data.count == headerSize + 4 * floats else {
            throw bad("size", "\(data.count) bytes; rank \(rank), \(inputs) inputs and \(classes) classes take \(headerSize + 4 * floats)")
        }
        var values = [Float](repeating: 0, count: floats)
        for i in 0..<floats {
            let v = Float(bitPattern: UInt32(truncatingIfNeeded: u32(headerSize + 4 * i)))
            guard v.isFinite else { throw bad("weights", "value \(i) is not finite") }
            values[i] = v
        }
        let na = rank * inputs, nb = classes * rank
        let adapter = HeadAdapter(rank: rank, inputs: inputs, classes: classes, a: Array(values[0..<na]),
                                  b: Array(values[na..<(na + nb)]), d: Array(values[(na + nb)...]))
        return Decoded(digest: digest, minimumPairs: minimumPairs, pairsLearned: Int(learned), adapter: adapter)
    }
}

extension WriterProfile {
    /// The profile as bytes to keep (at most ``maxDataSize``): the adaptation, the network's checksum and the
    /// counts. The pairs themselves are not kept: a restored profile learns on from new pairs.
    public func data() -> Data {
        let s = state.withLock { $0 }
        return WriterProfileFormat.encode(digest: networkDigest, minimumPairs: minimumPairs, pairsLearned: s.pairsLearned,
                                          adapter: s.adapter)
    }

    /// A profile saved by ``data()``. With `recognizer` it can learn on (``learn(from:)`` checks that it is the
    /// profile's network); without, it can only be applied.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` for bytes that are not a
    ///   well-formed profile of at most ``maxDataSize`` bytes (the field named).
    public convenience init(data: Data, for recognizer: DigitalInkRecognizer? = nil) throws(DigitalInkError) {
        let d = try WriterProfileFormat.decode(data)
        self.init(networkDigest: d.digest, minimumPairs: d.minimumPairs, adapter: d.adapter, pairsLearned: d.pairsLearned,
                  recognizer: recognizer)
    }
}
