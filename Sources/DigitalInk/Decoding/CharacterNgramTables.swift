/// The decoded contents of a language-model file, whatever its version: per order the sorted n-gram
/// keys and their values, ready for ``CharacterNgramModel`` to index.
///
/// Keys pack the symbols s₁…sₙ as `bits`-bit digits, the predicted symbol lowest:
/// key = Σ sᵢ · 2^(bits·(n−i)). Symbol 0 is the start of text (BOS).
struct CharacterNgramTables: Sendable {
    var order: Int
    /// Symbols 0..<symbolCount; 0 is BOS.
    var symbolCount: Int
    /// Bits per symbol in a key: 8 up to 256 symbols, otherwise the bits of `symbolCount − 1`.
    var bits: Int
    /// The text of symbols 1..<symbolCount (INKLM2), or nil where symbols are the network's class
    /// indices (INKLM1).
    var alphabet: [String]?
    /// The log-probability of a symbol the model does not know.
    var unknownLogProbability: Float
    var keys: [[UInt64]]
    var logProbs: [LMValues]
    var logBackoffs: [LMValues]
    /// Whether every key of order n ≥ 2 is known, by construction, to extend a key of order n − 1 (INKLM2's
    /// trie levels); otherwise ``CharacterNgramModel`` checks it at load.
    var isPrefixClosed: Bool = false

    /// Bits per symbol for an alphabet of `symbolCount` symbols (BOS included).
    static func keyBits(symbolCount: Int) -> Int {
        symbolCount <= 256 ? 8 : Int.bitWidth - (symbolCount - 1).leadingZeroBitCount
    }
}

/// One order's log-probabilities or backoff weights as they are kept in memory: floats (INKLM1), or the
/// file's 8- or 16-bit codes into a codebook (INKLM2: a quarter or half of the floats' memory, the same
/// values), or one value for every entry (an order without backoffs).
struct LMValues: Sendable {
    private var floats: [Float] = []
    private var codes8: [UInt8] = []
    private var codes16: [UInt16] = []
    private var book: [Float] = []
    private var kind: UInt8 = 0  // 0 floats, 1 codes8, 2 codes16, 3 constant book[0]

    init(floats: [Float]) { self.floats = floats }

    /// 1-byte `codes`, each below `book.count` (checked by the reader).
    init(codes8 codes: [UInt8], book: [Float]) {
        self.book = book
        codes8 = codes
        kind = 1
    }

    /// 2-byte `codes`, each below `book.count` (checked by the reader).
    init(codes16 codes: [UInt16], book: [Float]) {
        self.book = book
        codes16 = codes
        kind = 2
    }

    /// The same value for every entry.
    init(constant value: Float) {
        book = [value]
        kind = 3
    }

    @inline(__always)
    subscript(i: Int) -> Float {
        switch kind {
        case 1: return book[Int(codes8[i])]
        case 2: return book[Int(codes16[i])]
        case 3: return book[0]
        default: return floats[i]
        }
    }
}
