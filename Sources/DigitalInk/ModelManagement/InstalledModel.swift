import Foundation

/// A model installed in a ``ModelManager``'s storage directory.
public struct InstalledModel: Sendable, Hashable {
    /// The model.
    public var model: DigitalInkRecognitionModel
    /// The installed version (from the manifest it was downloaded with).
    public var version: String
    /// What the model recognizes.
    public var kind: ModelManifest.Kind
    /// The name of the network the model uses, if the manifest named one (see
    /// ``ModelManifest/Model/network``).
    public var network: String?
    /// The licence of the model's files.
    public var license: String
    /// The directory holding the model's `config.json`, which the recognizer loads.
    public var modelDirectory: URL
    /// The installed files, as the manifest listed them.
    public var files: [ModelManifest.File]
    /// When the model was installed.
    public var installedAt: Date

    /// Total bytes of the model's files.
    public var sizeInBytes: Int64 { ModelManifest.File.totalSize(files) }
}
