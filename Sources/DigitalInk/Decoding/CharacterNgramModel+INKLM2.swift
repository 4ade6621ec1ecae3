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
            let lpCodes = try r.codes(count, width: lpWidth)
            for i in 0..<count where Int(lpCodes[i]) >= lpBook.count {
                throw r.corrupt("order \(n) entry \(i): log-probability code \(lpCodes[i]) outside its codebook")
            }
            let lp = LMValues(codes: lpCodes, width: lpWidth, book: lpBook)
            var bo = LMValues(constant: 0)
            if boWidth > 0 {
                let boCodes = try r.codes(count, width: boWidth)
                for i in 0..<count where Int(boCodes[i]) >= boBook.count {
                    throw r.corrupt("order \(n) entry \(i): backoff code \(boCodes[i]) outside its codebook")
                }
                bo = LMValues(codes: boCodes, width: boWidth, book: boBook)
            }
            keys.append(k); lps.append(lp); bows.append(bo)
            k = []
        }
        guard r.remaining == 0 else { throw r.corrupt("\(r.remaining) unexpected bytes at the end") }
        return CharacterNgramTables(order: order, symbolCount: symbols, bits: bits, alphabet: alphabet,
                                    unknownLogProbability: unknown, keys: keys, logProbs: lps, logBackoffs: bows)
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

    /// The keys of one trie level: a LEB128 child count per parent (summing to `count`), then the
    /// children's symbols, ascending and in 1..<symbols within each parent.
    private static func readChildren(_ r: inout LMByteReader, parents: [UInt64], count: Int, symbols: Int, symbolWidth: Int,
                                     bits: Int, order n: Int) throws(DigitalInkError) -> [UInt64] {
        var children = [Int](repeating: 0, count: parents.count)
        var total = 0
        for p in parents.indices {
            let c = try r.varint()
            guard c < symbols, total + c <= count else {
                throw r.corrupt("order \(n): parent \(p) has \(c) children, more than its symbols or the order's \(count) entries")
            }
            children[p] = c
            total += c
        }
        guard total == count else { throw r.corrupt("order \(n): child counts sum to \(total), not \(count)") }
        let syms = try r.codes(count, width: symbolWidth)
        var keys = [UInt64](repeating: 0, count: count)
        var i = 0
        for p in parents.indices where children[p] > 0 {
            var previous = 0
            for _ in 0..<children[p] {
                let s = Int(syms[i])
                guard s > previous, s < symbols else {
                    throw r.corrupt("order \(n) entry \(i): symbol \(s) not ascending within its context or out of range")
                }
                keys[i] = parents[p] << UInt64(bits) | UInt64(s)
                previous = s
                i += 1
            }
        }
        return keys
    }
}
