/// One reading of a text line as the stages between the beam search and the calibration pass it on:
/// its text, its score (natural-log units) and its classes. Internal.
struct TextHypothesis: Sendable, Hashable {
    var text: String
    var score: Float
    var symbols: [Int]
    var length: Int { symbols.count }

    /// Best first; equal scores by text, so that the order never depends on a dictionary's.
    static func isRankedBefore(_ a: TextHypothesis, _ b: TextHypothesis) -> Bool {
        a.score != b.score ? a.score > b.score : a.text < b.text
    }
}
