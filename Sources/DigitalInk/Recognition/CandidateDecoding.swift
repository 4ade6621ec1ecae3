import Foundation

/// The decoding stages of recognition: the network's output for one ink becomes ranked candidates
/// (before alignment).
///
/// The line pipeline (``LinePipeline``) is `Ink → NetworkReader → CandidateDecoding → CandidateAligner
/// → candidates`; a model's kind (``ModelKind``) chooses the decoder once, when the model loads. Adding
/// a kind of model (a page recognizer, a large-alphabet decoder) is adding a type that conforms.
protocol CandidateDecoding: Sendable {
    /// At most `options.maxResultCount` candidates for `output` (the network's log-probabilities,
    /// every value finite), best first. `views` gives the network's outputs for stretched copies of the
    /// ink (``ViewReader``) where the model rescores with them and the beam is not sure enough
    /// (``ModelConfiguration/ViewRescoring/margin``); only reading them throws.
    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate]

    /// Candidates for an ink whose context is one of `contexts`, each with its prior probability (a
    /// page's line goes on from the line above or starts afresh): a text's score is
    /// `log Σ_c prior_c · exp(score_c)` over the contexts (a text that one context's beam did not keep
    /// counts as impossible there). Contexts of prior 0 are not read; one context of prior 1 is
    /// ``candidates(for:views:context:options:)``.
    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate]
}

extension CandidateDecoding {
    /// A decoder without a pre-context (the shapes classifier) reads the likeliest context.
    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        try candidates(for: output, views: views, context: contexts.max { $0.prior < $1.prior }?.context ?? RecognitionContext(),
                       options: options)
    }

    /// The candidates of `output` alone (no views).
    func candidates(for output: FeatureMatrix, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) -> [DigitalInkRecognitionCandidate] {
        // Without views nothing is read, so nothing throws.
        (try? candidates(for: output, views: .none, context: context, options: options)) ?? []
    }
}

/// Text: the beam search (``TextBeamSearch``), under each of a page line's contexts merged
/// (``ContextMixture``), then the view rescoring (``ViewRescorer``, whose views' own beams are the same
/// search), then the calibration (``CandidateCalibrator``). Each stage is a type of its own; this one
/// only chains them.
struct CTCTextDecoder: CandidateDecoding {
    let beamSearch: TextBeamSearch
    let rescorer: ViewRescorer
    let calibrator: CandidateCalibrator

    init(configuration: ModelConfiguration, classLabels: [String], symbolOfCharacter: [Character: Int],
         languageModel: CharacterNgramModel?) {
        beamSearch = TextBeamSearch(configuration: configuration, classLabels: classLabels,
                                    symbolOfCharacter: symbolOfCharacter, languageModel: languageModel)
        rescorer = ViewRescorer(configuration: configuration, symbolOfCharacter: symbolOfCharacter)
        calibrator = CandidateCalibrator(configuration: configuration, hasLanguageModel: languageModel != nil)
    }

    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        try candidates(for: output, views: views, eitherOf: [(context, 1)], options: options)
    }

    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        let read = contexts.filter { $0.prior > 0 }
        // The hypotheses of an output (the original's, or a view's) under the contexts read.
        func hypotheses(_ output: FeatureMatrix, _ options: DigitalInkRecognizerOptions) -> [TextHypothesis] {
            guard read.count > 1 else {
                return beamSearch.hypotheses(for: output, context: read.first?.context ?? RecognitionContext(), options: options)
            }
            return ContextMixture.merged(read) { beamSearch.hypotheses(for: output, context: $0, options: options) }
        }
        let ranked = try rescorer.rescored(hypotheses(output, options), output: output, views: views, options: options) {
            hypotheses($0, rescorer.viewBeamOptions(options))
        }
        return calibrator.candidates(ranked, options: options)
    }
}
