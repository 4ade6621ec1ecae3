/// The pipeline for one line (or word, or shape): features and network (``NetworkReader``), the
/// model's decoding stages (``CandidateDecoding``: beam search, view rescoring, calibration), then
/// alignment (``CandidateAligner``). ``DigitalInkRecognizer/recognize(_:context:)`` runs it on the
/// ink; a page (``DigitalInkRecognizer/recognizePage(_:context:)``) runs it on each line, reading
/// (``read(_:)``) ahead on the compute threads and decoding
/// (``candidates(for:origins:views:eitherOf:ink:)``) in order. Internal.
struct LinePipeline: Sendable {
    let model: LoadedModel
    let options: DigitalInkRecognizerOptions
    /// The writer's adaptation of the network (``WriterProfile``), nil for none.
    var adaptation: WriterAdaptation? = nil

    /// The features and network stages.
    var reader: NetworkReader { NetworkReader(model: model, adaptation: adaptation) }

    /// Recognizes `ink` alone: the views are read only if the decoder asks (its best candidates are close).
    func recognize(_ ink: Ink, context: RecognitionContext) throws(DigitalInkError) -> DigitalInkRecognitionResult {
        let (output, origins) = try reader.read(ink, writingArea: context.writingArea)
        let viewReader = ViewReader(model: model, options: options, adaptation: adaptation)
        let views = InkViews(reading: { () throws(DigitalInkError) in
            guard let viewReader else { return [] }
            return try viewReader.outputs(ink, writingArea: context.writingArea)
        }, base: { () throws(DigitalInkError) in try viewReader?.baseOutput(ink, writingArea: context.writingArea) })
        return DigitalInkRecognitionResult(candidates: try candidates(for: output, origins: origins, views: views,
                                                                      eitherOf: [(context, 1)], ink: ink))
    }

    /// A page line's network output and its views, read at once.
    func read(_ ink: Ink) throws(DigitalInkError) -> LineOutput {
        let (output, origins) = try reader.read(ink, writingArea: nil)
        var views: [FeatureMatrix] = []
        if output.rows > 0, let viewReader = ViewReader(model: model, options: options, adaptation: adaptation) {
            views = try viewReader.outputs(ink, writingArea: nil)
        }
        return LineOutput(network: output, origins: origins, views: views)
    }

    /// The decoding and alignment stages: the candidates of `output`, the network's output for `ink`
    /// (`origins` the origin of each of its input frames, `views` its views), whose context is one of
    /// `contexts` (``CandidateDecoding/candidates(for:views:eitherOf:options:)``). None for an ink
    /// without points.
    func candidates(for output: FeatureMatrix, origins: [FeatureExtractor.FrameOrigin]?, views: InkViews,
                    eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    ink: Ink) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        guard output.rows > 0 else { return [] }
        let candidates = try model.decoder.candidates(for: output, views: views, eitherOf: contexts, options: options)
        guard model.configuration.modelKind == .text, let origins else { return candidates }
        return CandidateAligner(model: model).align(candidates, output: output, origins: origins, ink: ink)
    }
}

/// A page line's network output: log-probabilities, frame origins and the views' outputs (none for
/// a line without points), read on a compute thread ahead of the line's decoding.
struct LineOutput: Sendable {
    var network: FeatureMatrix
    var origins: [FeatureExtractor.FrameOrigin]?
    var views: [FeatureMatrix]
}
