import Foundation

/// How a model's `config.json` names its files (`network.weights`, `decoder.languageModel`), and
/// the rule that keeps every such reference inside the models root.
///
/// A reference is a relative path with `/` separators, in one of two forms:
///
/// - **own file**, inside the model directory: `lm.bin`, `data/lm.bin`;
/// - **shared file**, in a sibling folder of the model directory: `../latn-bilstm96x3/weights.safetensors`.
///   Several models (one per language of a script) list the same network this way; the
///   repository stores it once and ``ModelManager`` downloads and stores it once.
///
/// The *models root* is the directory that holds the model directories: a repository checkout's
/// `Models/`, an app's bundled `Models/`, or one installed version in a ``ModelManager``'s storage
/// (which keeps the repository's layout). A shared reference climbs exactly one level, to the
/// models root, and then names a folder and a file in it: no absolute paths, no `.` or empty
/// components, no `..` anywhere else, so no reference leaves the models root. When the file is
/// opened, symbolic links are resolved and the target must still lie in the model directory (own
/// file) or in the named folder of the models root (shared file).
enum ModelFileReference {
    /// The two forms a valid reference takes.
    enum Form: Sendable, Hashable {
        /// A file inside the model directory.
        case own
        /// A file in the folder `folder` of the models root (the parent of the model directory).
        case shared(folder: String)
    }

    /// The form of `path`, or nil when the path is not a valid reference (absolute, empty, with
    /// `\`, NUL, empty, `.` or misplaced `..` components, or climbing above the models root).
    static func form(of path: String) -> Form? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return nil }
        var components = path.split(separator: "/", omittingEmptySubsequences: false)
        var shared = false
        if components.first == ".." {
            components.removeFirst()
            shared = true
            // `../folder/file` at least: a folder of the models root, never a file directly in it.
            guard components.count >= 2 else { return nil }
        }
        guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return shared ? .shared(folder: String(components[0])) : .own
    }

    /// The URL to open for `path` in the model directory `directory`, with symbolic links resolved.
    ///
    /// - Throws: ``DigitalInkError/modelCorrupt(file:reason:)`` naming `path` when it is not a valid
    ///   reference, or when it leads (through a symbolic link) out of the model directory (own
    ///   file) or out of its shared folder of the models root (shared file).
    static func resolve(_ path: String, in directory: URL) throws(DigitalInkError) -> URL {
        guard let form = form(of: path) else {
            throw .modelCorrupt(file: path, reason: "the path must stay inside the model directory or a shared folder beside it")
        }
        let modelDirectory = directory.resolvingSymlinksInPath().standardizedFileURL
        let allowed: URL
        let relative: String
        switch form {
        case .own:
            allowed = modelDirectory
            relative = path
        case .shared(let folder):
            allowed = modelDirectory.deletingLastPathComponent().appendingPathComponent(folder, isDirectory: true)
            relative = String(path.dropFirst(3 + folder.count + 1))  // "../" + folder + "/"
        }
        var target = allowed
        for component in relative.split(separator: "/") { target.appendPathComponent(String(component)) }
        let resolved = target.resolvingSymlinksInPath().standardizedFileURL
        let base = allowed.path.hasSuffix("/") ? allowed.path : allowed.path + "/"
        guard resolved.path.hasPrefix(base) else {
            throw .modelCorrupt(
                file: path,
                reason: form == .own ? "the file lies outside the model directory"
                    : "the file lies outside the shared folder of the models root")
        }
        return resolved
    }
}
