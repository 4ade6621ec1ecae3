import Foundation

extension CharacterNgramTables {
    /// The most symbols (BOS included) an INKLM2 file may hold.
    static let maxSymbolsV2 = 65_535

    /// Reads an INKLM2 file (`Training/LM_FORMAT.md`): its own alphabet, and per order a trie level
    /// (child counts of the previous order, the children's symbols) with log-probabilities and
    /// backoff weights as codes into per-order codebooks.
    ///
    /// Every count, code, symbol and value is checked before use; the keys it rebuilds are sorted by
    /// construction (parents in key order, children in ascending symbol order).
    static func readINKLM2(_ bytes: [UInt8], name: String) throws(DigitalInkError) -> CharacterNgramTables {
        var r = LMByteReader(bytes, name: name)
        try r.skip(8)  // magic, checked by the caller
        let order = Int(try r.u32())
        let symbols = Int(try r.u32())
        guard (1...7).contains(order), (2...maxSymbolsV2).contains(symbols) else {
            throw r.corrupt("order \(order) or symbol count \(symbols) out of range (1...7, 2...\(maxSymbolsV2))")
        }
        let bits = keyBits(symbolCount: symbols)
        guard order * bits <= 64 else {
            throw r.corrupt("order \(order) with \(symbols) symbols needs \(order * bits) key bits (64 at most)")
        }
        let unknown = try r.f32()
        guard unknown.isFinite, unknown <= 0 else { throw r.corrupt("unknown-symbol log-probability \(unknown) is not finite and ≤ 0") }
        let alphabet = try readAlphabet(&r, count: symbols - 1)
        let symbolWidth = symbols <= 256 ? 1 : 2
        var keys: [[UInt64]] = [], lps: [LMValues] = [], bows: [LMValues] = []
        for n in 1...order {
            let count = Int(try r.u32())
            if n == 1 {
                guard count == symbols else { throw r.corrupt("order 1 has \(count) entries for \(symbols) symbols") }
            } else {
                guard count <= r.remaining / 2 else { throw r.corrupt("order \(n): \(count) entries do not fit in the file") }
            }
            let lpWidth = Int(try r.u8()), boWidth = Int(try r.u8())
            guard (1...2).contains(lpWidth), (0...2).contains(boWidth), try r.u16() == 0 else {
                throw r.corrupt("order \(n): code widths \(lpWidth), \(boWidth) or the reserved field are invalid")
            }
            let lpBook = try readCodebook(&r, width: lpWidth, order: n, what: "log-probability", maxValue: 1e-4)
            let boBook = boWidth > 0 ? try readCodebook(&r, width: boWidth, order: n, what: "backoff", maxValue: .infinity) : []
            var k: [UInt64]
            if n == 1 {
                k = (0..<UInt64(symbols)).map { $0 }
            } else {
                k = try readChildren(&r, parents: keys[n - 2], count: count, symbols: symbols, symbolWidth: symbolWidth,
                                     bits: bits, order: n)
            }
            let lp = try readValues(&r, count: count, width: lpWidth, book: lpBook, order: n, what: "log-probability")
            var bo = LMValues(constant: 0)
            if boWidth > 0 {
                bo = try readValues(&r, count: count, width: boWidth, book: boBook, order: n, what: "backoff")
            }
            keys.append(k); lps.append(lp); bows.append(bo)
            k = []
        }
        guard r.remaining == 0 else { throw r.corrupt("\(r.remaining) unexpected bytes at the end") }
        // Every key of order n ≥ 2 is a child of a key of order n − 1 (readChildren): prefix-closed.
        return CharacterNgramTables(order: order, symbolCount: symbols, bits: bits, alphabet: alphabet,
                                    unknownLogProbability: unknown, keys: keys, logProbs: lps, logBackoffs: bows,
                                    isPrefixClosed: true)
    }

    /// `count` symbol texts: a UInt8 byte length (at least 1), then that many bytes of UTF-8; all
    /// distinct (canonically equivalent texts are the same symbol).
    private static func readAlphabet(_ r: inout LMByteReader, count: Int) throws(DigitalInkError) -> [String] {
        var alphabet: [String] = []
        alphabet.reserveCapacity(count)
        var seen = Set<String>()
        for i in 1...count {
            let length = Int(try r.u8())
            let start = r.position
            try r.skip(length)
            guard length > 0, let text = String(validating: r.bytes[start..<start + length], as: UTF8.self) else {
                throw r.corrupt("symbol \(i) is empty or not UTF-8")
            }
            guard seen.insert(text).inserted else { throw r.corrupt("symbol \(i) (\(text.debugDescription)) appears twice") }
            alphabet.append(text)
        }
        return alphabet
    }

    /// A UInt32 size K (1 ≤ K ≤ 256^width) and K finite Float32 values, each at most `maxValue`.
    private static func readCodebook(_ r: inout LMByteReader, width: Int, order n: Int, what: String,
                                     maxValue: Float) throws(DigitalInkError) -> [Float] {
        let size = Int(try r.u32())
        guard size >= 1, size <= 1 << (8 * width), size <= r.remaining / 4 else {
            throw r.corrupt("order \(n): \(what) codebook of \(size) values for \(width)-byte codes")
        }
        var book = [Float](repeating: 0, count: size)
        for i in 0..<size {
            let v = try r.f32()
            guard v.isFinite, v <= maxValue else { throw r.corrupt("order \(n): \(what) codebook value \(i) is \(v)") }
            book[i] = v
        }
        return book
    }

    /// `count` codes of `width` bytes into `book`, each checked to be inside it.
    private static func readValues(_ r: inout LMByteReader, count: Int, width: Int, book: [Float], order n: Int,
                                   what: String) throws(DigitalInkError) -> LMValues {
        func checked<Code: FixedWidthInteger>(_ codes: [Code]) throws(DigitalInkError) -> [Code] {
            if let top = codes.max(), Int(top) >= book.count {
                let i = codes.firstIndex { Int($0) >= book.count }!
                throw r.corrupt("order \(n) entry \(i): \(what) code \(codes[i]) outside its codebook")
            }
            return codes
        }
        if width == 1 { return LMValues(codes8: try checked(r.rawBytes(count)), book: book) }
        return LMValues(codes16: try checked(r.codes(count, width: width)), book: book)
    }

    /// The keys of one trie level: a LEB128 child count per parent (summing to `count`), then the
    /// children's symbols, ascending and in 1..<symbols within each parent.
    private static func readChildren(_ r: inout LMByteReader, parents: [UInt64], count: Int, symbols: Int, symbolWidth: Int,
                                     bits: Int, order n: Int) throws(DigitalInkError) -> [UInt64] {
        let children = try r.varints(parents.count)
        var total = 0
        for (p, c) in children.enumerated() {
            guard c < symbols, total + c <= count else {
                throw r.corrupt("order \(n): parent \(p) has \(c) children, more than its symbols or the order's \(count) entries")
            }
            total += c
        }
        guard total == count else { throw r.corrupt("order \(n): child counts sum to \(total), not \(count)") }
        let syms = try r.codes(count, width: symbolWidth)
        var bad: Int? = nil
        let keys = [UInt64](unsafeUninitializedCapacity: count) { out, initialized in
            (initialized, bad) = parents.withUnsafeBufferPointer { parents in
                children.withUnsafeBufferPointer { children in
                    syms.withUnsafeBufferPointer { syms in
                        childKeys(parents: parents, children: children, symbols: syms, limit: symbols, bits: bits, into: out)
                    }
                }
            }
        }
        if let i = bad {
            throw r.corrupt("order \(n) entry \(i): symbol \(syms[i]) not ascending within its context or out of range")
        }
        return keys
    }

    /// Writes `parent << bits | symbol` for each child into `out` (the children of `parents[p]` are the next
    /// `children[p]` of `symbols`); returns how many were written and, if one is not ascending within its
    /// parent or not below `limit`, its index (where it stopped).
    private static func childKeys(parents: UnsafeBufferPointer<UInt64>, children: UnsafeBufferPointer<Int>,
                                  symbols: UnsafeBufferPointer<UInt16>, limit: Int, bits: Int,
                                  into out: UnsafeMutableBufferPointer<UInt64>) -> (written: Int, bad: Int?) {
        let shift = UInt64(bits)
        var i = 0
        for p in 0..<min(parents.count, children.count) where children[p] > 0 {
            let parent = parents[p] << shift
            var previous: UInt16 = 0
            for _ in 0..<children[p] {
                let symbol = symbols[i]
                guard symbol > previous, Int(symbol) < limit else { return (i, i) }
                out[i] = parent | UInt64(symbol)
                previous = symbol
                i += 1
            }
        }
        return (i, nil)
    }
}
