import Foundation

/// Files that several models of a manifest list: one network shared by the languages of a
/// script, for example.
///
/// A manifest says that models share a file by listing the same entry (same path, size and
/// SHA-256) in each of them, usually in a folder of its own beside the model folders:
///
/// ```json
/// {"identifier": "de-DE", "files": [
///   {"path": "de-DE/config.json", …}, {"path": "de-DE/lm.bin", …},
///   {"path": "latn-bilstm96x3/weights.safetensors", "size": 2373072, "sha256": "5f64…"}]},
/// {"identifier": "fr-FR", "files": [
///   {"path": "fr-FR/config.json", …}, {"path": "fr-FR/lm.bin", …},
///   {"path": "latn-bilstm96x3/weights.safetensors", "size": 2373072, "sha256": "5f64…"}]}
/// ```
///
/// Each model's `config.json` then names the file relative to its own folder
/// (`"weights": "../latn-bilstm96x3/weights.safetensors"`). This is format version 1: readers that
/// predate shared files read such a manifest unchanged, since every model still lists all its files.
extension ModelManifest {
    /// A file listed by more than one model.
    public struct SharedFile: Sendable, Hashable {
        /// The file's entry: the first one listed, when models list the same contents under
        /// different paths.
        public var file: File
        /// The models that list it, in manifest order.
        public var models: [DigitalInkRecognitionModelIdentifier]
    }

    /// The files that more than one model lists (same SHA-256), sorted by path. A
    /// ``ModelManager`` downloads and stores each of them once.
    public var sharedFiles: [SharedFile] {
        var users: [String: SharedFile] = [:]
        for model in models {
            var seen = Set<String>()
            for file in model.files where seen.insert(file.sha256).inserted {
                users[file.sha256, default: SharedFile(file: file, models: [])].models.append(model.identifier)
            }
        }
        return users.values.filter { $0.models.count > 1 }.sorted { $0.file.path < $1.file.path }
    }

    /// The files of `model` that no other model of the manifest lists (content compared by
    /// SHA-256, so an identical file under another path counts as shared too).
    public func ownFiles(of model: Model) -> [File] {
        let others = Set(models.lazy.filter { $0.identifier != model.identifier }.flatMap { $0.files.map(\.sha256) })
        return model.files.filter { !others.contains($0.sha256) }
    }

    /// The files of `model` that another model of the manifest lists too (same SHA-256).
    public func sharedFiles(of model: Model) -> [File] {
        let own = Set(ownFiles(of: model))
        return model.files.filter { !own.contains($0) }
    }
}
