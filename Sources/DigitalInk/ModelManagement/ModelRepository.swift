import Foundation

/// Where ``ModelManager`` gets models from: a directory or an HTTP(S) base URL holding
/// `manifest.json` (see ``ModelManifest``) and the model files at the paths it lists.
///
/// - ``embedded``: the models an app bundles, `Models/` in its main bundle's resources (the default
///   of ``ModelManager/shared``). Copy them there with `inkrec models export --language en-US
///   --output MyApp/Resources/Models`: only the models you choose, with their manifest.
/// - ``bundle(_:subdirectory:)``: the same in any bundle, for example a SwiftPM target's own
///   resources: `.bundle(.module)` for a target that declares `resources: [.copy("Models")]`.
/// - ``directory(_:)``: any local directory. The `DigitalInkModels` product of this package is one:
///   `DigitalInkModels.repository` holds every shipped model.
/// - ``remote(_:)``: any HTTP(S) base URL serving the same layout; a static file server is enough.
///   Servers that honour `Range` requests let interrupted downloads resume.
///
/// The library never looks at its own source tree or at environment variables to find models.
public enum ModelRepository: Sendable, Hashable, CustomStringConvertible {
    /// The models bundled with the app: `Models/` in the main bundle's resources
    /// (``embeddedDirectory``).
    case embedded
    /// A local directory with `manifest.json` at its top.
    case directory(URL)
    /// An HTTP or HTTPS base URL; `<base>/manifest.json` is the manifest.
    case remote(URL)

    /// The directory ``embedded`` stands for: `Models` in `Bundle.main`'s resources (it need not
    /// exist).
    public static var embeddedDirectory: URL {
        bundleDirectory(.main, subdirectory: "Models")
    }

    /// A repository in `bundle`'s resources: the directory `subdirectory` (default `Models`) that
    /// holds `manifest.json` and the model folders.
    public static func bundle(_ bundle: Bundle, subdirectory: String = "Models") -> ModelRepository {
        .directory(bundleDirectory(bundle, subdirectory: subdirectory))
    }

    private static func bundleDirectory(_ bundle: Bundle, subdirectory: String) -> URL {
        (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent(subdirectory, isDirectory: true)
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

    /// True for ``embedded`` and ``directory(_:)``: ``ModelManager`` reads their models where they
    /// are (read-only) instead of copying them into its storage directory, so a bundled model takes
    /// its disk space once. Installing one checks every file's size and SHA-256 once; the install
    /// record then names the repository's directory. A `file:` URL given to ``remote(_:)`` is
    /// copied, as from a server.
    ///
    /// When the repository moves (an app update moves its bundle), a model read from it counts as
    /// not downloaded until ``ModelManager/download(_:conditions:)`` has checked it in the new place.
    public var readsInPlace: Bool {
        switch self {
        case .embedded, .directory: return true
        case .remote: return false
        }
    }

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
        case .embedded: return "bundled models at \(baseURL.path)"
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
