/// A recognition model that can be downloaded, listed and deleted with ``ModelManager``, as ML
/// Kit's `DigitalInkRecognitionModel`.
///
/// ```swift
/// guard let identifier = try DigitalInkRecognitionModelIdentifier.from(languageTag: "en-US") else { return }
/// let model = DigitalInkRecognitionModel(modelIdentifier: identifier)
/// try await ModelManager.shared.download(model).wait()
/// ```
public struct DigitalInkRecognitionModel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which model this is.
    public let modelIdentifier: DigitalInkRecognitionModelIdentifier

    /// The model named by `modelIdentifier`.
    public init(modelIdentifier: DigitalInkRecognitionModelIdentifier) {
        self.modelIdentifier = modelIdentifier
    }

    /// The identifier's language tag.
    public var description: String { modelIdentifier.languageTag }
}
