import Foundation

/// Where ``ModelManager`` gets models from: a directory or an HTTP(S) base URL holding
/// `manifest.json` (see ``ModelManifest``) and the model files at the paths it lists.
///
/// - ``embedded``: the project's own `Models/` directory, so that the command-line tool and a first
///   program work without a server.
/// - ``directory(_:)``: any local directory, for example models an app ships as package or bundle
///   resources: `.directory(Bundle.module.url(forResource: "Models", withExtension: nil)!)`.
/// - ``remote(_:)``: any HTTP(S) base URL serving the same layout; a static file server is enough.
///   Servers that honour `Range` requests let interrupted downloads resume.
public enum ModelRepository: Sendable, Hashable, CustomStringConvertible {
    /// The package's `Models/` directory: the path in the environment variable
    /// `DIGITALINK_MODELS` when it is set, otherwise `<package root>/Models` next to the sources
    /// this library was built from.
    case embedded
    /// A local directory with `manifest.json` at its top.
    case directory(URL)
    /// An HTTP or HTTPS base URL; `<base>/manifest.json` is the manifest.
    case remote(URL)

    /// The environment variable that overrides where ``embedded`` looks.
    public static let environmentVariable = "DIGITALINK_MODELS"

    /// The directory ``embedded`` stands for (it need not exist).
    public static var embeddedDirectory: URL {
        if let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is <root>/Sources/DigitalInk/Models/ModelRepository.swift.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Models
            .deletingLastPathComponent()  // DigitalInk
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Models", isDirectory: true)
    }

    /// The repository's base: a directory URL for local repositories, the HTTP(S) URL otherwise.
    public var baseURL: URL {
        switch self {
        case .embedded: return Self.embeddedDirectory
        case .directory(let url): return url
        case .remote(let url): return url
        }
    }

    /// True when the files are read from the local file system (``embedded``, ``directory(_:)``,
    /// or a `file:` URL given to ``remote(_:)``).
    public var isLocal: Bool { baseURL.isFileURL }

    /// The URL of `manifest.json`.
    public var manifestURL: URL { url(forPath: ModelManifest.fileName) }

    /// The URL of a file given by its manifest path.
    public func url(forPath path: String) -> URL {
        var url = baseURL
        for component in path.split(separator: "/") {
            url.appendPathComponent(String(component))
        }
        return url
    }

    /// The repository's kind and location.
    public var description: String {
        switch self {
        case .embedded: return "embedded repository at \(baseURL.path)"
        case .directory(let url): return "repository at \(url.path)"
        case .remote(let url): return "repository at \(url.absoluteString)"
        }
    }

    /// The manifest of a local repository, or nil when the repository is remote or has no
    /// manifest file.
    func localManifestIfPresent() throws(DigitalInkError) -> ModelManifest? {
        guard isLocal else { return nil }
        let url = manifestURL
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try ModelManifest(contentsOf: url)
    }
}
