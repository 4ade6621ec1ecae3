import Foundation

/// How a ``DigitalInkRecognizer`` is set up: which model, how many candidates, decoder settings.
public struct DigitalInkRecognizerOptions: Sendable {
    enum Source: Sendable {
        case directory(URL)
        case managed(DigitalInkRecognitionModel, ModelManager)
    }

    let source: Source
    /// Most candidates returned (ML Kit's default is 10).
    public var maxResultCount: Int = 10
    /// Use the model's language model as the decoder's prior (when the model has one).
    public var useLanguageModel: Bool = true
    /// Overrides the model's beam width when set.
    public var beamWidth: Int?
    /// Overrides the model's language-model weight when set (for tuning).
    public var lmWeight: Float?
    /// Overrides the model's per-character insertion bonus when set (for tuning).
    public var insertionBonus: Float?
    /// Overrides the model's end-of-text weight (`decoder.endWeight` in `config.json`) when set (for tuning).
    public var endWeight: Float?

    /// A recognizer for `model`, which must have been downloaded through `modelManager`.
    public init(model: DigitalInkRecognitionModel, modelManager: ModelManager = .shared) {
        self.source = .managed(model, modelManager)
    }

    /// A recognizer for the model whose `config.json` is in `modelDirectory` (for example a model an
    /// app ships as a resource, or one exported by the training pipeline).
    public init(modelDirectory: URL) {
        self.source = .directory(modelDirectory)
    }
}
