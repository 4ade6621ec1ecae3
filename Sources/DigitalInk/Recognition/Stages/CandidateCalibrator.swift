/// The calibration stage of a text model: ranked hypotheses become the returned candidates, at most
/// `options.maxResultCount` of them, each with its confidence (``ConfidenceCalibration``) computed over
/// the top beam width of the hypotheses. Internal.
struct CandidateCalibrator: Sendable {
    let configuration: ModelConfiguration
    /// Whether the model has a language model (the beam's width may depend on its use).
    let hasLanguageModel: Bool

    /// The candidates of `ranked` (best first) for a recognition with `options`.
    func candidates(_ ranked: [TextHypothesis], options: DigitalInkRecognizerOptions) -> [DigitalInkRecognitionCandidate] {
        let width = configuration.beamSearch(languageModel: options.useLanguageModel && hasLanguageModel,
                                             options: options).beamWidth
        return Self.candidates(ranked, poolWidth: width, calibration: configuration.decoder?.confidence,
                               maxResultCount: options.maxResultCount)
    }

    /// The first `maxResultCount` of `ranked`, with confidences computed over the first `poolWidth`
    /// (a candidate beyond them has confidence 0).
    static func candidates(_ ranked: [TextHypothesis], poolWidth: Int, calibration: ConfidenceCalibration?,
                           maxResultCount: Int) -> [DigitalInkRecognitionCandidate] {
        let pool = ranked.prefix(poolWidth)
        let confidences = ConfidenceCalibration.confidences(scores: pool.map(\.score), lengths: pool.map(\.length),
                                                            calibration: calibration)
        return ranked.prefix(maxResultCount).enumerated().map { i, h in
            DigitalInkRecognitionCandidate(text: h.text, score: h.score, confidence: i < confidences.count ? confidences[i] : 0)
        }
    }
}
