/// One recognition hypothesis.
///
/// For text models `score` is the decoder's log-score in natural-log units: the CTC log-likelihood of
/// the text given the ink, plus `lmWeight ×` the language model's log-probability of the text after the
/// pre-context, plus `insertionBonus ×` its length, plus `endWeight ×` the language model's
/// log-probability of a space after it (the model's decoder settings), plus a vocabulary's bonus, plus,
/// for a model that rescores with stretched views of the ink (``DecoderSettings/viewWeight``), how much
/// likelier the views find the text than the ink as written.
/// Higher is better; scores compare only within one result. For the shapes model `score` is the
/// calibrated probability of the class (0...1, higher is better, summing to 1 over all classes).
///
/// `confidence` is comparable across inks: the probability (0...1) that this candidate is exactly
/// what was written. For a text model it comes from the scores of all the decoder's final hypotheses,
/// calibrated on tuning words and lines of held-out writers (the model card reports how well it is
/// calibrated); for the shapes model it equals `score`. An app can accept a candidate above a
/// threshold of its choice and ask the user otherwise. With hints (a vocabulary, a character set)
/// the confidence is not calibrated for them.
public struct DigitalInkRecognitionCandidate: Sendable, Hashable, Codable {
    public var text: String
    public var score: Float
    /// The calibrated probability that the candidate is exactly right, 0...1 (nil only for
    /// candidates made by your own code).
    public var confidence: Float?
    /// Which strokes and points produced each character and word (text models; nil for the shapes
    /// model, and for a candidate whose characters the model cannot output).
    public var segments: InkSegmentation?

    public init(text: String, score: Float, confidence: Float? = nil, segments: InkSegmentation? = nil) {
        self.text = text
        self.score = score
        self.confidence = confidence
        self.segments = segments
    }
}
