import Foundation

/// How a ``DigitalInkRecognizer`` is set up: which model, how many candidates, decoder settings.
public struct DigitalInkRecognizerOptions: Sendable {
    enum Source: Sendable {
        case directory(URL)
        case managed(DigitalInkRecognitionModel, ModelManager)
    }

    let source: Source
    /// The most candidates any recognition may ask for: 1,000.
    public static let maxResultLimit = 1_000

    /// Most candidates returned, `1...maxResultLimit` (ML Kit's default is 10). The beam search keeps
    /// at least this many prefixes.
    public var maxResultCount: Int = 10
    /// Use the model's language model as the decoder's prior (when the model has one).
    public var useLanguageModel: Bool = true
    /// Overrides of the model's decoder settings (beam width and weights); empty by default.
    public var decoder = DecoderSettings()
    /// The characters a text model may output (a digits-only form field: `Set("0123456789")`), or
    /// nil for all. Applied inside the beam search: no candidate ever holds another character. A
    /// set without the space makes the text one word. Ignored by classifiers (shapes). Must not be
    /// empty. With a model whose labels are Hangul jamo, a syllable of the set lets the search use its
    /// jamo, and only readings whose composed syllables are all in the set are returned.
    public var allowedCharacters: Set<Character>?
    /// Words or phrases to prefer, or (strict) the only texts allowed; nil for none. Applied inside
    /// the beam search together with ``allowedCharacters`` (see ``RecognitionVocabulary``). Ignored by
    /// classifiers (shapes).
    public var vocabulary: RecognitionVocabulary?
    /// Kernels and BLAS threads (see ``ComputeOptions``); the defaults are the fastest kernels and one
    /// BLAS thread.
    public var compute = ComputeOptions()
    /// How timestamps that go backwards inside a stroke are treated: accepted by default (the
    /// recognizer does not use timestamps), or rejected with `.strict`.
    public var timestampValidation: Ink.TimestampValidation = .lenient
    /// A writer's profile (``WriterProfile``): what the recognizer learned of this writer's hand from their
    /// confirmed readings (a change to the network's weights, or to its output), applied once it has learned from
    /// enough pairs; nil for none. It must have been made for this recognizer's network (a recognition throws
    /// ``DigitalInkError/invalidOption(name:reason:)`` otherwise). Ignored by classifiers (shapes).
    public var writerProfile: WriterProfile?

    /// A recognizer for `model`, which must have been downloaded through `modelManager`.
    public init(model: DigitalInkRecognitionModel, modelManager: ModelManager = .shared) {
        self.source = .managed(model, modelManager)
    }

    /// A recognizer for the model whose `config.json` is in `modelDirectory` (for example a model an
    /// app ships as a resource, or one exported by the training pipeline).
    public init(modelDirectory: URL) {
        self.source = .directory(modelDirectory)
    }

    /// Throws ``DigitalInkError/invalidOption(name:reason:)`` for a ``maxResultCount`` outside
    /// `1...maxResultLimit` or invalid ``decoder`` settings (see ``DecoderSettings/validate()``).
    public func validate() throws(DigitalInkError) {
        guard (1...Self.maxResultLimit).contains(maxResultCount) else {
            throw .invalidOption(name: "maxResultCount", reason: "\(maxResultCount) is outside 1...\(Self.maxResultLimit)")
        }
        try decoder.validate()
        try compute.validate()
        if let allowed = allowedCharacters, allowed.isEmpty {
            throw .invalidOption(name: "allowedCharacters", reason: "the set is empty: nothing could be recognized")
        }
    }
}
