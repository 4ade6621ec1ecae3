import Foundation

/// The bytes of a saved ``WriterProfile``, all integers and floats little-endian. Version 1, a change to the
/// output layer (``HeadAdapter``):
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
/// Version 2, a change beside every weight (``LSTMAdapter``):
///
///     0       8           magic "INKWP\0\0\2"
///     8       32          SHA-256 of the network's weights file
///     40      4 (u32)     rank r, 1 ... 64
///     44      4 (u32)     weights changed P, 1 ... 256
///     48      4 (u32)     classes C (the length of d), 1 ... 65536
///     52      4 (u32)     minimum pairs
///     56      8 (u64)     pairs learned
///     64      8·P         each weight's rows and columns (u32 each, 1 ... 65536)
///             …           for each weight: A (Float32, r × columns), then B (Float32, rows × r)
///             4·C         d (Float32)
///
/// Version 3, a change beside every weight and its last check (``WriterProfileCheck``): version 2 with the magic
/// "INKWP\0\0\3" and after d
///
///             4 (u32)     pairs the check read, 1 ... ``WriterProfile/maxKeptPairs``
///             4 (u32)     the words of their texts, 0 ... 2²⁴
///             4 (u32)     word errors of their readings without a change, 0 ... 2²⁴
///             4 (u32)     word errors with one, 0 ... 2²⁴
///
/// Exactly that many bytes, at most ``WriterProfile/maxDataSize``, every float finite. Internal.
enum WriterProfileFormat {
    static let magic: [UInt8] = Array("INKWP".utf8) + [0, 0, 1]
    static let magicV2: [UInt8] = Array("INKWP".utf8) + [0, 0, 2]
    static let magicV3: [UInt8] = Array("INKWP".utf8) + [0, 0, 3]
    /// The bytes version 3 adds to version 2.
    static let checkSize = 16
    /// The largest count of words or word errors a check may hold.
    static let maxCheckCount = 1 << 24
    static let headerSize = 64
    /// The most weights a version-2 profile may change.
    static let maxPairs = 256

    static func encode(digest: String, minimumPairs: Int, pairsLearned: Int, change: WriterProfile.Change,
                       check: WriterProfileCheck? = nil) -> Data {
        switch change {
        case .head(let adapter):
            var out = Data(magic)
            out.append(contentsOf: digestBytes(digest))
            for v in [adapter.rank, adapter.inputs, adapter.classes, minimumPairs] { append(UInt32(v), to: &out) }
            append(UInt64(pairsLearned), to: &out)
            for f in adapter.a { append(f.bitPattern, to: &out) }
            for f in adapter.b { append(f.bitPattern, to: &out) }
            for f in adapter.d { append(f.bitPattern, to: &out) }
            return out
        case .network(let adapter):
            var out = Data(check == nil ? magicV2 : magicV3)
            out.reserveCapacity(size(of: adapter) + (check == nil ? 0 : checkSize))
            out.append(contentsOf: digestBytes(digest))
            for v in [adapter.rank, adapter.pairs.count, adapter.headBias.count, minimumPairs] { append(UInt32(v), to: &out) }
            append(UInt64(pairsLearned), to: &out)
            for p in adapter.pairs { append(UInt32(p.rows), to: &out); append(UInt32(p.columns), to: &out) }
            for p in adapter.pairs {
                for f in p.a { append(f.bitPattern, to: &out) }
                for f in p.b { append(f.bitPattern, to: &out) }
            }
            for f in adapter.headBias { append(f.bitPattern, to: &out) }
            if let check {
                for v in [check.pairs, check.words, check.wordErrorsWithout, check.wordErrorsWith] {
                    append(UInt32(min(v, maxCheckCount)), to: &out)
                }
            }
            return out
        }
    }

    /// The bytes of a version-2 profile holding `adapter`.
    static func size(of adapter: LSTMAdapter) -> Int {
        headerSize + 8 * adapter.pairs.count + 4 * (adapter.pairs.reduce(0) { $0 + adapter.rank * ($1.rows + $1.columns) } + adapter.headBias.count)
    }

    private static func digestBytes(_ digest: String) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        let hex = Array(digest.utf8)
        for i in 0..<min(32, hex.count / 2) {
            bytes[i] = UInt8(String(decoding: hex[(2 * i)..<(2 * i + 2)], as: UTF8.self), radix: 16) ?? 0
        }
        return bytes
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout Data) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    struct Decoded {
        var digest: String
        var minimumPairs: Int
        var pairsLearned: Int
        var change: WriterProfile.Change
        var check: WriterProfileCheck? = nil
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
        let version3 = Array(bytes[0..<8]) == magicV3
        let version2 = version3 || Array(bytes[0..<8]) == magicV2
        guard version2 || Array(bytes[0..<8]) == magic else { throw bad("magic", "not a writer profile (or another version)") }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func float(_ at: Int, _ i: Int) throws(DigitalInkError) -> Float {
            let v = Float(bitPattern: UInt32(truncatingIfNeeded: u32(at)))
            guard v.isFinite else { throw bad("weights", "value \(i) is not finite") }
            return v
        }
        let digest = bytes[8..<40].map { String(format: "%02x", $0) }.joined()
        let rank = u32(40), inputs = u32(44), classes = u32(48), minimumPairs = u32(52)
        let learned = u64(56)
        guard (1...64).contains(rank) else { throw bad("rank", "\(rank) is outside 1...64") }
        guard learned <= UInt64(Int32.max) else { throw bad("pairsLearned", "\(learned) is out of range") }
        guard (1...65536).contains(classes) else { throw bad("classes", "\(classes) is outside 1...65536") }
        if version2 {
            let count = inputs
            guard (1...maxPairs).contains(count) else { throw bad("weights changed", "\(count) is outside 1...\(maxPairs)") }
            guard data.count >= headerSize + 8 * count else {
                throw bad("size", "\(data.count) bytes, shorter than the header and \(count) shapes")
            }
            var shapes: [(rows: Int, columns: Int)] = []
            var floats = classes
            for k in 0..<count {
                let rows = u32(headerSize + 8 * k), columns = u32(headerSize + 8 * k + 4)
                guard (1...65536).contains(rows), (1...65536).contains(columns) else {
                    throw bad("shape", "weight \(k) is \(rows) × \(columns), outside 1...65536")
                }
                shapes.append((rows, columns))
                floats += rank * (rows + columns)
                guard floats <= data.count / 4 else { throw bad("size", "\(data.count) bytes, too short for the shapes") }
            }
            let expected = headerSize + 8 * count + 4 * floats + (version3 ? checkSize : 0)
            guard data.count == expected else {
                throw bad("size", "\(data.count) bytes; rank \(rank), these \(count) shapes and \(classes) classes take \(expected)")
            }
            var at = headerSize + 8 * count, i = 0
            var pairs: [LSTMAdapter.Pair] = []
            for s in shapes {
                var a = [Float](repeating: 0, count: rank * s.columns), b = [Float](repeating: 0, count: s.rows * rank)
                for j in a.indices { a[j] = try float(at, i); at += 4; i += 1 }
                for j in b.indices { b[j] = try float(at, i); at += 4; i += 1 }
                pairs.append(LSTMAdapter.Pair(rows: s.rows, columns: s.columns, a: a, b: b))
            }
            var d = [Float](repeating: 0, count: classes)
            for j in d.indices { d[j] = try float(at, i); at += 4; i += 1 }
            var check: WriterProfileCheck? = nil
            if version3 {
                let read = u32(at), words = u32(at + 4), without = u32(at + 8), with = u32(at + 12)
                guard (1...WriterProfile.maxKeptPairs).contains(read) else {
                    throw bad("check", "\(read) pairs read, outside 1...\(WriterProfile.maxKeptPairs)")
                }
                for (name, v) in [("words", words), ("word errors without a change", without), ("word errors with one", with)]
                where v > maxCheckCount {
                    throw bad("check", "\(v) \(name), more than \(maxCheckCount)")
                }
                check = WriterProfileCheck(pairs: read, words: words, wordErrorsWithout: without, wordErrorsWith: with)
            }
            return Decoded(digest: digest, minimumPairs: minimumPairs, pairsLearned: Int(learned),
                           change: .network(LSTMAdapter(rank: rank, pairs: pairs, headBias: d)), check: check)
        }
        guard (1...4096).contains(inputs) else { throw bad("inputs", "\(inputs) is outside 1...4096") }
        let floats = rank * inputs + classes * rank + classes
        guard data.count == headerSize + 4 * floats else {
            throw bad("size", "\(data.count) bytes; rank \(rank), \(inputs) inputs and \(classes) classes take \(headerSize + 4 * floats)")
        }
        var values = [Float](repeating: 0, count: floats)
        for i in 0..<floats { values[i] = try float(headerSize + 4 * i, i) }
        let na = rank * inputs, nb = classes * rank
        let adapter = HeadAdapter(rank: rank, inputs: inputs, classes: classes, a: Array(values[0..<na]),
                                  b: Array(values[na..<(na + nb)]), d: Array(values[(na + nb)...]))
        return Decoded(digest: digest, minimumPairs: minimumPairs, pairsLearned: Int(learned), change: .head(adapter))
    }
}

extension WriterProfile {
    /// The profile as bytes to keep (at most ``maxDataSize``; about 219 KB for a Latin model's change to every
    /// weight): the adaptation, the network's checksum and the counts. The pairs themselves are not kept: a profile
    /// restored once it had learned from ``minimumPairs`` pairs learns on from that many new pairs at once
    /// (``pendingPairs``).
    public func data() -> Data {
        let s = state.withLock { ($0.change, $0.pairsLearned, $0.check) }
        return WriterProfileFormat.encode(digest: networkDigest, minimumPairs: minimumPairs, pairsLearned: s.1, change: s.0, check: s.2)
    }

    /// A profile saved by ``data()``. With `recognizer` it can learn on (``learn(from:threads:)`` checks that it is the
    /// profile's network); without, it can only be applied.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` for bytes that are not a
    ///   well-formed profile of at most ``maxDataSize`` bytes (the field named).
    public convenience init(data: Data, for recognizer: DigitalInkRecognizer? = nil) throws(DigitalInkError) {
        try self.init(data: data, for: recognizer, steps: nil)
    }

    /// A profile saved by ``data()`` that learns on with `steps` Adam steps per `learn` call (nil: the settings
    /// measured).
    @_spi(Engine) public convenience init(data: Data, for recognizer: DigitalInkRecognizer?, steps: Int?,
                                          checkSteps: Int? = nil) throws(DigitalInkError) {
        try Self.checkSettings(steps: steps, checkSteps: checkSteps)
        let d = try WriterProfileFormat.decode(data)
        self.init(networkDigest: d.digest, minimumPairs: d.minimumPairs, change: d.change, pairsLearned: d.pairsLearned,
                  recognizer: recognizer, steps: steps, checkSteps: checkSteps, check: d.check, restored: true)
    }
}
