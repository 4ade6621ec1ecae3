import _InkKernels

/// The features and network stages: an ink becomes frames (``FeatureExtractor``), and the frames the
/// network's per-frame log-probabilities (``RecognitionNetwork``). Internal.
struct NetworkReader: Sendable {
    let features: FeatureExtractor
    let network: RecognitionNetwork
    /// Whether the model reads text (only a text model's frames have origins to align with).
    let readsText: Bool
    /// The weights file, named when the output is not finite.
    let weightsFile: String
    /// A writer's change to the head (``WriterProfile``), applied to a text model's output; nil for none.
    let adapter: HeadAdapter?

    /// The stages of `model`, with a writer's `adaptation` (``WriterProfile``): a network of the writer's own
    /// in place of the model's, or a change to a text model's output.
    init(model: LoadedModel, adaptation: WriterAdaptation? = nil) {
        features = model.features
        readsText = model.configuration.modelKind == .text
        network = (readsText ? adaptation?.network : nil) ?? model.network
        weightsFile = model.configuration.network.weights
        self.adapter = readsText ? adaptation?.head : nil
    }

    /// The log-probabilities for `ink` (0 rows for an ink without points) and, for a text model when
    /// `origins` is true, the origin of each input frame. Throws for an ink too long for its size,
    /// and for a network whose output is not finite.
    func read(_ ink: Ink, writingArea: WritingArea?,
              origins wantOrigins: Bool = true) throws(DigitalInkError) -> (FeatureMatrix, [FeatureExtractor.FrameOrigin]?) {
        var origins: [FeatureExtractor.FrameOrigin]? = readsText && wantOrigins ? [] : nil
        let frames = try features.features(for: ink, writingArea: writingArea, origins: &origins)
        guard frames.rows > 0 else { return (frames, origins) }
        var (logProbs, headInput) = network.logProbabilities(frames, keepingHeadInput: adapter != nil)
        if let adapter, let headInput { logProbs = adapter.apply(headInput: headInput, logProbs: logProbs) }
        // Overflowing weights: never NaN scores. (In C: with thousands of classes, `allSatisfy(\.isFinite)`
        // over every log-probability was 8% of a line's recognition.)
        guard logProbs.values.withUnsafeBufferPointer({ ink_all_finite($0.baseAddress, $0.count) != 0 }) else {
            throw .modelCorrupt(file: weightsFile, reason: "the network's output for this ink is not finite (weights out of range)")
        }
        return (logProbs, origins)
    }
}
