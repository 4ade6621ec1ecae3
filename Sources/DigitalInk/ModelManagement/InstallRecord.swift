import Foundation

/// What `<storage>/records/<identifier>.json` says about an installed model. The record is
/// written last, atomically, after every file is verified and in place: a model counts as
/// installed exactly when its record exists and names files that are present.
struct InstallRecord: Sendable, Hashable, Codable {
    /// The record format this library writes.
    static let currentFormatVersion = 1

    var formatVersion: Int = InstallRecord.currentFormatVersion
    var identifier: DigitalInkRecognitionModelIdentifier
    var version: String
    var kind: ModelManifest.Kind
    var network: String?
    var license: String
    /// The version directory under `<storage>/models/<identifier>/` (empty for a model read in place).
    var directory: String
    /// The files, as the manifest listed them.
    var files: [ModelManifest.File]
    var installedAt: Date
    /// Where the model came from, for diagnostics.
    var repository: String
    /// For a model read in place from a local repository (the app's bundle, a directory): the
    /// repository's directory, where the files are read; nil for a model copied into the store.
    var location: String? = nil

    /// The manifest path of config.json.
    var configPath: String? { files.first { $0.fileName == "config.json" }?.path }
}
