import Foundation

/// A character n-gram model in the project's `lm.bin` format (see `Training/LM_FORMAT.md`).
///
/// Little-endian: magic `INKLM1\0\0`; UInt32 order N; UInt32 symbol count S (symbol 0 is the start of
/// text); then for n = 1...N a UInt32 count and that many entries sorted by key: UInt64 key, Float32
/// log-probability, Float32 log-backoff. The key of symbols s₁…sₙ (sₙ predicted) is Σ sᵢ·256ⁿ⁻ⁱ.
///
/// Lookup is classic backoff: the longest stored n-gram wins, adding the backoff weights of the
/// contexts that were shortened. Each lookup is a binary search per order inside a bucket of keys
/// (an index by the keys' top bits, built at load): O(N log(E / 2^14)).
@_spi(Engine) public struct CharacterNgramModel: LanguageModel, Sendable {
    /// The last N−1 symbols, packed as base-256 digits (most recent in the lowest byte), and how many
    /// symbols are held.
    public struct State: Hashable, Sendable {
        var packed: UInt64
        var length: Int
    }

    public let order: Int
    public let symbolCount: Int
    private let keys: [[UInt64]]
    private let logProbs: [[Float]]
    private let logBackoffs: [[Float]]
    /// Per order, where each bucket of keys starts: bucket `b` (the key's top `bucketBits` significant
    /// bits for that order) holds `keys[n][starts[n][b] ..< starts[n][b + 1]]`, so that a lookup
    /// searches a few keys instead of the whole order (the same result as a binary search over all).
    private let starts: [[Int32]]
    private let shifts: [UInt64]
    static let bucketBits: UInt64 = 14

    public init(contentsOf url: URL) throws(DigitalInkError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .modelCorrupt(file: url.lastPathComponent, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, name: url.lastPathComponent)
    }

    public init(data: Data, name: String = "lm.bin") throws(DigitalInkError) {
        func corrupt(_ r: String) -> DigitalInkError { .modelCorrupt(file: name, reason: r) }
        let bytes = [UInt8](data)
        var pos = 0
        func u32() throws(DigitalInkError) -> UInt32 {
            guard pos + 4 <= bytes.count else { throw corrupt("truncated at byte \(pos)") }
            defer { pos += 4 }
            return UInt32(bytes[pos]) | UInt32(bytes[pos + 1]) << 8 | UInt32(bytes[pos + 2]) << 16 | UInt32(bytes[pos + 3]) << 24
        }
        guard bytes.count >= 16, Array(bytes[0..<8]) == Array("INKLM1\0\0".utf8) else { throw corrupt("not an INKLM1 file") }
        pos = 8
        let order = Int(try u32())
        let symbols = Int(try u32())
        guard (1...7).contains(order), (2...256).contains(symbols) else {
            throw corrupt("order \(order) or symbol count \(symbols) out of range")
        }
        var keys: [[UInt64]] = [], lps: [[Float]] = [], bows: [[Float]] = []
        for n in 1...order {
            let count = Int(try u32())
            guard count <= (bytes.count - pos) / 16 else { throw corrupt("order \(n): \(count) entries do not fit in the file") }
            // Filled through buffer pointers (writing the arrays element by element from inside the
            // closure made loading the shipped model several times slower).
            let start = pos
            let (k, lp, bo) = bytes.withUnsafeBytes { raw in
                (
                    [UInt64](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i, as: UInt64.self))
                        }
                        n = count
                    },
                    [Float](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i + 8,
                                                                                         as: UInt32.self)))
                        }
                        n = count
                    },
                    [Float](unsafeUninitializedCapacity: count) { b, n in
                        for i in 0..<count {
                            b[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 16 * i + 12,
                                                                                         as: UInt32.self)))
                        }
                        n = count
                    }
                )
            }
            pos += 16 * count
            for i in 0..<count {
                guard lp[i].isFinite, lp[i] <= 1e-4, bo[i].isFinite else { throw corrupt("order \(n) entry \(i) has an invalid value") }
                guard i == 0 || k[i - 1] < k[i] else { throw corrupt("order \(n) keys are not sorted") }
            }
            keys.append(k); lps.append(lp); bows.append(bo)
        }
        guard pos == bytes.count else { throw corrupt("\(bytes.count - pos) unexpected bytes at the end") }
        guard keys[0].count == symbols - 1 else {
            throw corrupt("\(keys[0].count) unigrams for \(symbols - 1) symbols")
        }
        self.order = order
        self.symbolCount = symbols
        self.keys = keys
        self.logProbs = lps
        self.logBackoffs = bows
        var starts: [[Int32]] = [], shifts: [UInt64] = []
        for (i, k) in keys.enumerated() {
            // Keys of order n are below 256^n: bucket by their top bits.
            let bits = UInt64(8 * (i + 1))
            let shift = bits > Self.bucketBits ? bits - Self.bucketBits : 0
            let buckets = Int(1 << min(bits, Self.bucketBits))
            var s = [Int32](repeating: 0, count: buckets + 1)
            var j = 0
            for b in 0..<buckets {
                s[b] = Int32(j)
                while j < k.count, Int(k[j] >> shift) == b { j += 1 }
            }
            s[buckets] = Int32(k.count)
            starts.append(s)
            shifts.append(shift)
        }
        self.starts = starts
        self.shifts = shifts
    }

    public func startState(preContext: [Int]) -> State {
        var s = State(packed: 0, length: 1)  // symbol 0: start of text
        for sym in preContext { s = advance(s, sym) }
        return s
    }

    public func score(_ symbol: Int, after state: State) -> (logProbability: Float, next: State) {
        (logProbability(symbol, state), advance(state, symbol))
    }

    fileprivate func advance(_ s: State, _ symbol: Int) -> State {
        let keep = order - 1
        guard keep > 0 else { return State(packed: 0, length: 0) }
        let length = min(s.length + 1, keep)
        let mask: UInt64 = length >= 8 ? ~0 : (UInt64(1) << UInt64(8 * length)) - 1
        return State(packed: ((s.packed << 8) | UInt64(symbol & 0xFF)) & mask, length: length)
    }

    /// log P(symbol | state) with backoff.
    func logProbability(_ symbol: Int, _ s: State) -> Float {
        var acc: Float = 0
        var n = min(s.length, order - 1) + 1
        while n >= 1 {
            let ctxLen = n - 1
            let ctx = ctxLen == 0 ? 0 : s.packed & ((UInt64(1) << UInt64(8 * ctxLen)) - 1)
            let key = (ctx << 8) | UInt64(symbol & 0xFF)
            if let i = find(key, order: n - 1) { return acc + logProbs[n - 1][i] }
            if ctxLen > 0, let j = find(ctx, order: ctxLen - 1) { acc += logBackoffs[ctxLen - 1][j] }
            n -= 1
        }
        return acc + -30  // a symbol outside the model: effectively impossible
    }

    /// The index of `key` among the keys of order index `o` (0 for unigrams), or nil: a binary search
    /// inside the key's bucket.
    @inline(__always)
    func find(_ key: UInt64, order o: Int) -> Int? {
        let b = key >> shifts[o]
        let s = starts[o]
        guard b < UInt64(s.count - 1) else { return nil }
        let a = keys[o]
        let end = Int(s[Int(b) + 1])
        var lo = Int(s[Int(b)]), hi = end
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < end && a[lo] == key ? lo : nil
    }
}

extension CharacterNgramModel {
    /// The state after exactly `symbols` (0 included where a text starts), keeping the last N−1.
    func state(afterSymbols symbols: [Int]) -> State {
        var s = State(packed: 0, length: 0)
        for sym in symbols { s = advance(s, sym) }
        return s
    }
}
