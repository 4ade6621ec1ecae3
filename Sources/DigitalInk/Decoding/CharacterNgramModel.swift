import Foundation

/// A character n-gram model read from an `lm.bin` file (INKLM1 or INKLM2, see `Training/LM_FORMAT.md`).
///
/// INKLM1 files are keyed by the network's class indices. INKLM2 files carry their own alphabet (the
/// text of each symbol); ``bound(toLabels:)`` maps a network's labels onto it, so that one LM serves any
/// network whose labels it shares. A class the LM does not know scores ``unknownLogProbability`` and
/// starts the context afresh (its successors back off as after the start of an unknown text).
///
/// Lookup is classic backoff: the longest stored n-gram wins, adding the backoff weights of the
/// contexts that were shortened. Each lookup is a binary search per order inside a bucket of keys
/// (an index by the keys' top bits, built at load): O(N log(E / 2^14)).
@_spi(Engine) public struct CharacterNgramModel: LanguageModel, Sendable {
    /// The last N−1 symbols, packed as `bits`-bit digits (most recent lowest), and how many symbols
    /// are held.
    /// (Ten bytes, sixteen with the optional the decoder keeps per prefix: one state per prefix of the
    /// beam search, tens of thousands on a long line.)
    public struct State: Hashable, Sendable {
        var packed: UInt64
        private var lengthByte: UInt8
        private var contextByte: UInt8
        /// How many symbols `packed` holds (at most the order − 1, below 8).
        var length: Int {
            get { Int(lengthByte) }
            set { lengthByte = UInt8(truncatingIfNeeded: newValue) }
        }
        /// At least the length of the longest suffix of the history that is a stored n-gram (at most
        /// `length`). With the prefix property (``hasPrefixProperty``), a lookup starts at order
        /// `context + 1`: every longer context is not stored, so it has no backoff weight and no
        /// n-gram continues it. `score` sets it to the order of the n-gram it found; otherwise it is
        /// `length` (no knowledge, the lookup starts at the top).
        var context: Int {
            get { Int(contextByte) }
            set { contextByte = UInt8(truncatingIfNeeded: newValue) }
        }

        init(packed: UInt64, length: Int, context: Int? = nil) {
            self.packed = packed
            lengthByte = UInt8(truncatingIfNeeded: length)
            contextByte = UInt8(truncatingIfNeeded: context ?? length)
        }
    }

    public let order: Int
    /// LM symbols 0..<symbolCount; 0 is the start of text.
    public let symbolCount: Int
    /// The text of symbols 1..<symbolCount (INKLM2); nil where symbols are class indices (INKLM1).
    public let alphabet: [String]?
    /// The log-probability of a class the LM does not know (INKLM2: stored in the file; INKLM1: −30).
    public let unknownLogProbability: Float
    private let bits: UInt64
    private let keys: [[UInt64]]
    private let logProbs: [LMValues]
    private let logBackoffs: [LMValues]
    /// Per order, where each bucket of keys starts: bucket `b` (the key's top `bucketBits` significant
    /// bits for that order) holds `keys[n][starts[n][b] ..< starts[n][b + 1]]`, so that a lookup
    /// searches a few keys instead of the whole order (the same result as a binary search over all).
    private let starts: [[Int32]]
    private let shifts: [UInt64]
    /// LM symbol of each class (−1: unknown), set by ``bound(toLabels:)``; nil: classes are LM symbols.
    private var symbolOfClass: [Int32]?
    /// Whether every stored n-gram's prefix (its first n − 1 symbols) is stored too, as in files made
    /// by `build_lm.py` (INKLM2 by construction: its trie levels store children of stored n-grams;
    /// INKLM1 checked at load, in one pass over the sorted keys). Lookups then skip the orders whose
    /// context is known not to be stored (``State/context``), with the same results.
    public let hasPrefixProperty: Bool
    static let bucketBits: UInt64 = 14

    public init(contentsOf url: URL) throws(DigitalInkError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .modelCorrupt(file: url.lastPathComponent, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, name: url.lastPathComponent)
    }

    public init(data: Data, name: String = "lm.bin") throws(DigitalInkError) {
        let bytes = [UInt8](data)
        let magic = bytes.count >= 8 ? Array(bytes[0..<8]) : []
        if magic == Array("INKLM1\0\0".utf8) {
            self.init(tables: try .readINKLM1(bytes, name: name))
        } else if magic == Array("INKLM2\0\0".utf8) {
            self.init(tables: try .readINKLM2(bytes, name: name))
        } else {
            throw .modelCorrupt(file: name, reason: "not an INKLM1 or INKLM2 file")
        }
    }

    init(tables t: CharacterNgramTables) {
        order = t.order
        symbolCount = t.symbolCount
        alphabet = t.alphabet
        unknownLogProbability = t.unknownLogProbability
        bits = UInt64(t.bits)
        keys = t.keys
        logProbs = t.logProbs
        logBackoffs = t.logBackoffs
        var starts: [[Int32]] = [], shifts: [UInt64] = []
        for (i, k) in t.keys.enumerated() {
            // Keys of order n are below 2^(bits·n): bucket by their top bits.
            let keyBits = UInt64(t.bits * (i + 1))
            let shift = keyBits > Self.bucketBits ? keyBits - Self.bucketBits : 0
            let buckets = Int(1 << min(keyBits, Self.bucketBits))
            var s = [Int32](repeating: 0, count: buckets + 1)
            var j = 0
            for b in 0..<buckets {
                s[b] = Int32(j)
                while j < k.count, k[j] >> shift == UInt64(b) { j += 1 }  // (no Int conversion that could trap)
            }
            s[buckets] = Int32(k.count)
            starts.append(s)
            shifts.append(shift)
        }
        self.starts = starts
        self.shifts = shifts
        hasPrefixProperty = t.isPrefixClosed || Self.prefixProperty(keys: t.keys, bits: UInt64(t.bits))
    }

    /// Whether each key of order n ≥ 2, shifted right by `bits` (its prefix), is a key of order
    /// n − 1. Keys are sorted within an order, so their prefixes are too: one merge pass. O(E).
    static func prefixProperty(keys: [[UInt64]], bits: UInt64) -> Bool {
        for n in keys.indices.dropFirst() {
            let lower = keys[n - 1]
            var j = 0
            for key in keys[n] {
                let prefix = key >> bits
                while j < lower.count, lower[j] < prefix { j += 1 }
                guard j < lower.count, lower[j] == prefix else { return false }
            }
        }
        return true
    }

    /// This model scoring a network's classes: class i (1...labels.count) is the LM symbol whose text
    /// is `labels[i − 1]`, or unknown when the alphabet has no such symbol. INKLM1 models (no alphabet)
    /// are returned as they are: their symbols are the classes.
    public func bound(toLabels labels: [String]) -> CharacterNgramModel {
        guard let alphabet else { return self }
        var symbol: [String: Int32] = [:]
        for (i, text) in alphabet.enumerated() { symbol[text] = Int32(i + 1) }
        var copy = self
        copy.symbolOfClass = [-1] + labels.map { symbol[$0] ?? -1 }
        return copy
    }

    /// How many of `labels` the model knows (all of them for INKLM1 models of the same size).
    public func knownLabelCount(_ labels: [String]) -> Int {
        guard let alphabet else { return min(labels.count, symbolCount - 1) }
        let known = Set(alphabet)
        return labels.filter(known.contains).count
    }

    public func startState(preContext: [Int]) -> State {
        var s = State(packed: 0, length: 1)  // symbol 0: start of text
        for sym in preContext { s = advance(s, lmSymbol(sym)) }
        return s
    }

    public func score(_ symbol: Int, after state: State) -> (logProbability: Float, next: State) {
        let s = lmSymbol(symbol)
        guard s > 0 else { return (unknownLogProbability, State(packed: 0, length: 0)) }
        if hasPrefixProperty {
            let (lp, found) = logProbability(s, state, from: min(state.context, state.length, order - 1) + 1)
            var next = advance(state, s)
            next.context = min(found, next.length)
            return (lp, next)
        }
        return (logProbability(s, state), advance(state, s))
    }

    /// What the lookups of every symbol after one state share: the orders they try (from `top` down) and,
    /// per order n, the sum of the backoff weights of the longer contexts that were shortened before it
    /// (`backoff[n − 1]`; `backoff[0]` also for a symbol without a unigram). The decoder scores several
    /// symbols after each prefix: with these, a lookup only searches for its n-grams (about 3 of the 5
    /// searches a lookup made with its contexts' weights).
    public struct Shared: Sendable {
        var top: Int
        var backoff: SIMD8<Float>
    }

    public func shared(in state: State) -> Shared {
        let top = hasPrefixProperty ? min(state.context, state.length, order - 1) + 1 : min(state.length, order - 1) + 1
        var backoff = SIMD8<Float>()
        var acc: Float = 0
        var n = top
        while n >= 1 {  // the additions of `logProbability(_:_:from:)`, in its order
            backoff[n - 1] = acc
            let ctxLen = n - 1
            if ctxLen > 0 {
                let ctx = state.packed & ((UInt64(1) << (bits * UInt64(ctxLen))) - 1)
                if let j = find(ctx, order: ctxLen - 1) { acc += logBackoffs[ctxLen - 1][j] }
            }
            n -= 1
        }
        return Shared(top: top, backoff: backoff)
    }

    public func score(_ symbol: Int, after state: State, shared: Shared) -> (logProbability: Float, next: State) {
        let s = lmSymbol(symbol)
        guard s > 0 else { return (unknownLogProbability, State(packed: 0, length: 0)) }
        var n = shared.top
        var lp = shared.backoff[0] + unknownLogProbability, found = 0
        while n >= 1 {
            let ctxLen = n - 1
            let ctx = ctxLen == 0 ? 0 : state.packed & ((UInt64(1) << (bits * UInt64(ctxLen))) - 1)
            if let i = find((ctx << bits) | UInt64(s), order: n - 1) {
                (lp, found) = (shared.backoff[n - 1] + logProbs[n - 1][i], n)
                break
            }
            n -= 1
        }
        var next = advance(state, s)
        if hasPrefixProperty { next.context = min(found, next.length) }
        return (lp, next)
    }

    /// The LM symbol of a class, or −1 when the model does not know it (BOS is never a class).
    @inline(__always)
    func lmSymbol(_ symbol: Int) -> Int {
        if let map = symbolOfClass { return symbol >= 0 && symbol < map.count ? Int(map[symbol]) : -1 }
        return symbol > 0 && symbol < symbolCount ? symbol : -1
    }

    /// The state after one more LM symbol; an unknown one (−1) empties the context.
    fileprivate func advance(_ s: State, _ symbol: Int) -> State {
        let keep = order - 1
        guard keep > 0, symbol >= 0 else { return State(packed: 0, length: 0) }
        let length = min(s.length + 1, keep)
        let used = bits * UInt64(length)
        let mask: UInt64 = used >= 64 ? ~0 : (UInt64(1) << used) - 1
        return State(packed: ((s.packed << bits) | UInt64(symbol)) & mask, length: length)
    }

    /// log P(symbol | state) with backoff, for an LM symbol in 1..<symbolCount.
    func logProbability(_ symbol: Int, _ s: State) -> Float {
        logProbability(symbol, s, from: min(s.length, order - 1) + 1).logProbability
    }

    /// log P(symbol | state) with backoff, trying the orders from `top` down, and the order of the
    /// n-gram found (0: none).
    @inline(__always)
    func logProbability(_ symbol: Int, _ s: State, from top: Int) -> (logProbability: Float, order: Int) {
        var acc: Float = 0
        var n = top
        while n >= 1 {
            let ctxLen = n - 1
            let ctx = ctxLen == 0 ? 0 : s.packed & ((UInt64(1) << (bits * UInt64(ctxLen))) - 1)
            let key = (ctx << bits) | UInt64(symbol)
            if let i = find(key, order: n - 1) { return (acc + logProbs[n - 1][i], n) }
            if ctxLen > 0, let j = find(ctx, order: ctxLen - 1) { acc += logBackoffs[ctxLen - 1][j] }
            n -= 1
        }
        return (acc + unknownLogProbability, 0)  // a symbol without a unigram (never in a valid file)
    }

    /// The index of `key` among the keys of order index `o` (0 for unigrams), or nil: a binary search
    /// inside the key's bucket, without branches on the comparisons (their outcomes are random, and a
    /// mispredicted branch per step cost more than the memory reads; the same index).
    @inline(__always)
    func find(_ key: UInt64, order o: Int) -> Int? {
        let b = key >> shifts[o]
        return starts[o].withUnsafeBufferPointer { s -> Int? in
            guard b < UInt64(s.count - 1) else { return nil }
            let lo = Int(s[Int(b)]), end = Int(s[Int(b) + 1])
            var n = end - lo
            guard n > 0 else { return nil }
            return keys[o].withUnsafeBufferPointer { a -> Int? in
                // The first index in lo..<end whose key is not below `key` (or end − 1): halve the range
                // [base, base + n) keeping it, by a conditional move.
                var base = lo
                while n > 1 {
                    let half = n >> 1
                    base = a[base + half - 1] < key ? base + half : base
                    n -= half
                }
                return a[base] == key ? base : nil
            }
        }
    }
}

extension CharacterNgramModel {
    /// The state after exactly `symbols` (class indices, 0 included where a text starts), keeping the
    /// last N−1.
    func state(afterSymbols symbols: [Int]) -> State {
        var s = State(packed: 0, length: 0)
        for sym in symbols { s = advance(s, sym == 0 ? 0 : lmSymbol(sym)) }
        return s
    }
}
