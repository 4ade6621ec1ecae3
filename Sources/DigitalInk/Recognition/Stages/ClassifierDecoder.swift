import Foundation

/// A classifier (shapes): one row of class log-probabilities; every class is a candidate, scored by
/// its probability.
struct ClassifierDecoder: CandidateDecoding {
    let classLabels: [String]

    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) -> [DigitalInkRecognitionCandidate] {
        let ranked = (0..<output.columns).map { c in
            DigitalInkRecognitionCandidate(text: classLabels[c], score: expf(output[0, c]), confidence: expf(output[0, c]))
        }.sorted { $0.score > $1.score }
        return Array(ranked.prefix(options.maxResultCount))
    }
}
