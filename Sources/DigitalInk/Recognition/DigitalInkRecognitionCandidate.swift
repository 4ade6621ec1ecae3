/// One recognition hypothesis.
///
/// For text models `score` is the decoder's log-score in natural-log units: the CTC log-likelihood of
/// the text given the ink, plus `lmWeight ×` the language model's log-probability of the text after the
/// pre-context, plus `insertionBonus ×` its length, plus `endWeight ×` the language model's
/// log-probability of a space after it (the model's decoder settings). Higher is better; scores compare
/// only within one result. For the shapes model `score` is the calibrated probability of the class (0...1, higher is
/// better, summing to 1 over all classes).
public struct DigitalInkRecognitionCandidate: Sendable, Hashable, Codable {
    public var text: String
    public var score: Float

    public init(text: String, score: Float) {
        self.text = text
        self.score = score
    }
}
