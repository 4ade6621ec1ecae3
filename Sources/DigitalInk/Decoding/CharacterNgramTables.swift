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
    var logProbs: [[Float]]
    var logBackoffs: [[Float]]

    /// Bits per symbol for an alphabet of `symbolCount` symbols (BOS included).
    static func keyBits(symbolCount: Int) -> Int {
        symbolCount <= 256 ? 8 : Int.bitWidth - (symbolCount - 1).leadingZeroBitCount
    }
}
