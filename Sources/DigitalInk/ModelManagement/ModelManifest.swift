import Foundation

/// The list of every model in a ``ModelRepository``: `<base>/manifest.json`.
///
/// ```json
/// {"formatVersion": 1,
///  "models": [
///   {"identifier": "en-US", "aliases": ["en"], "version": "1.0.0", "kind": "text", "network": "latn-v1",
///    "license": "CC-BY-4.0", "description": "English, Latin script",
///    "files": [{"path": "en-US/config.json", "size": 1234, "sha256": "<hex>"},
///              {"path": "en-US/weights.safetensors", "size": 2800000, "sha256": "<hex>"}]}
///  ]}
/// ```
///
/// File paths are relative to the repository base and use `/`. Each model lists exactly one
/// `config.json`; the directory that holds it is the model directory the recognizer loads, and
/// config.json names the other files by paths relative to itself. Several models may list the
/// same file (same path, size and digest), for example a network shared by the languages of one
/// script in a folder beside theirs (`latn-bilstm96x3/weights.safetensors`, named in each
/// config.json as `../latn-bilstm96x3/weights.safetensors`); it is then downloaded and stored
/// once (see ``sharedFiles`` and ``ModelManager``). Shared files need no other format: this is
/// still format version 1.
///
/// Reading a manifest (``init(data:source:)``) validates it; ``make(for:models:)`` computes sizes
/// and digests from files on disk, for export scripts and tests.
public struct ModelManifest: Sendable, Hashable, Codable {
    /// The manifest format this library reads and writes.
    public static let currentFormatVersion = 1
    /// The manifest's file name at the repository base.
    public static let fileName = "manifest.json"

    /// The format of this manifest; only ``currentFormatVersion`` is read.
    public var formatVersion: Int
    /// Every model in the repository.
    public var models: [Model]

    /// A manifest listing `models`. Call ``validate(source:)`` or ``make(for:models:)`` to check it.
    public init(formatVersion: Int = ModelManifest.currentFormatVersion, models: [Model]) {
        self.formatVersion = formatVersion
        self.models = models
    }

    /// What a model recognizes. Unknown kinds from newer manifests are kept as they are.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The kind's name in the manifest.
        public var rawValue: String
        /// The kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Handwritten text.
        public static let text = Kind(rawValue: "text")
        /// Geometric shapes (`zxx-Zsym-x-shapes`).
        public static let shapes = Kind(rawValue: "shapes")
        /// Emoji (`zxx-Zsye-x-emoji`).
        public static let emoji = Kind(rawValue: "emoji")
        /// Sketches (`zxx-Zsym-x-autodraw`).
        public static let autodraw = Kind(rawValue: "autodraw")
        /// The kind's name.
        public var description: String { rawValue }

        /// Decodes a kind from its name.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the kind as its name.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// One file of a model.
    public struct File: Sendable, Hashable, Codable {
        /// Path relative to the repository base, with `/` separators.
        public var path: String
        /// Size in bytes.
        public var size: Int64
        /// Lower-case hexadecimal SHA-256 digest of the contents.
        public var sha256: String

        /// The sum of the files' sizes, saturating at `Int64.max` instead of overflowing (a manifest
        /// that was built by hand, not read, may hold any size).
        public static func totalSize(_ files: [File]) -> Int64 {
            files.reduce(Int64(0)) { sum, file in
                let (r, overflow) = sum.addingReportingOverflow(max(0, file.size))
                return overflow ? .max : r
            }
        }

        /// A file entry. Leave `size` and `sha256` at their defaults when ``ModelManifest/make(for:models:)``
        /// will compute them.
        public init(path: String, size: Int64 = 0, sha256: String = "") {
            self.path = path
            self.size = size
            self.sha256 = sha256.lowercased()
        }

        /// The entry for the file at `path` under `directory`, with size and SHA-256 read from disk.
        ///
        /// - Throws: ``DigitalInkError/modelCorrupt(file:reason:)`` when the file cannot be read.
        public init(path: String, in directory: URL) throws(DigitalInkError) {
            let digest = try FileDigest(of: directory.appendingPathComponent(path))
            self.init(path: path, size: digest.size, sha256: digest.sha256)
        }

        /// Decodes a file entry; the digest is normalized to lower case.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                path: try c.decode(String.self, forKey: .path),
                size: try c.decode(Int64.self, forKey: .size),
                sha256: try c.decode(String.self, forKey: .sha256))
        }

        /// The last path component: `config.json` for a model's config.
        public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// One model: identifier, version and files.
    public struct Model: Sendable, Hashable, Codable {
        /// The model's identifier, its canonical name.
        public var identifier: DigitalInkRecognitionModelIdentifier
        /// Other tags that name this model exactly, for example `en` for `en-US`.
        public var aliases: [DigitalInkRecognitionModelIdentifier]
        /// The model's version. A different version in the manifest than the installed one is an
        /// update; versions are compared for equality only.
        public var version: String
        /// What the model recognizes.
        public var kind: Kind
        /// The name of the network the model uses: where several models share one, the name they
        /// share (for example `latn-v1` for all Latin-script languages, which then differ only in
        /// their language model); otherwise the model's own network's name, or none. Informational:
        /// shared files are recognized by their path and digest, not by this name.
        public var network: String?
        /// The licence of the model's files, as an SPDX identifier where there is one.
        public var license: String
        /// A human-readable description.
        public var description: String?
        /// Every file of the model, including exactly one `config.json`.
        public var files: [File]

        /// A model entry.
        public init(
            identifier: DigitalInkRecognitionModelIdentifier,
            aliases: [DigitalInkRecognitionModelIdentifier] = [],
            version: String,
            kind: Kind = .text,
            network: String? = nil,
            license: String,
            description: String? = nil,
            files: [File]
        ) {
            self.identifier = identifier
            self.aliases = aliases
            self.version = version
            self.kind = kind
            self.network = network
            self.license = license
            self.description = description
            self.files = files
        }

        /// Decodes a model entry; `aliases` default to none, `kind` to text, `network` and
        /// `description` to nil.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try c.decode(DigitalInkRecognitionModelIdentifier.self, forKey: .identifier)
            aliases = try c.decodeIfPresent([DigitalInkRecognitionModelIdentifier].self, forKey: .aliases) ?? []
            version = try c.decode(String.self, forKey: .version)
            kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .text
            network = try c.decodeIfPresent(String.self, forKey: .network)
            license = try c.decode(String.self, forKey: .license)
            description = try c.decodeIfPresent(String.self, forKey: .description)
            files = try c.decode([File].self, forKey: .files)
        }

        /// The model this entry describes.
        public var model: DigitalInkRecognitionModel { DigitalInkRecognitionModel(modelIdentifier: identifier) }

        /// The model's `config.json` entry (validated manifests have exactly one).
        public var configFile: File? { files.first { $0.fileName == "config.json" } }

        /// Total bytes of the model's files.
        public var totalSize: Int64 { ModelManifest.File.totalSize(files) }
    }

    /// The entry for `identifier`, matched exactly (aliases are not consulted; use
    /// ``DigitalInkRecognitionModelIdentifier/from(languageTag:in:)`` for that).
    public func model(for identifier: DigitalInkRecognitionModelIdentifier) -> Model? {
        models.first { $0.identifier == identifier }
    }

    // MARK: Reading and writing

    /// Decodes and validates a manifest.
    ///
    /// - Parameters:
    ///   - data: the manifest's JSON text.
    ///   - source: where the data came from, for error messages.
    /// - Throws: ``DigitalInkError/manifestMalformed(source:reason:)``.
    public init(data: Data, source: String = ModelManifest.fileName) throws(DigitalInkError) {
        do {
            self = try JSONDecoder().decode(ModelManifest.self, from: data)
        } catch let error as DecodingError {
            throw .manifestMalformed(source: source, reason: Self.describe(error))
        } catch {
            throw .manifestMalformed(source: source, reason: "\(error)")
        }
        try validate(source: source)
    }

    /// Reads and validates the manifest file at `url`.
    ///
    /// - Throws: ``DigitalInkError/manifestMalformed(source:reason:)`` when it cannot be read or is
    ///   invalid.
    public init(contentsOf url: URL) throws(DigitalInkError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .manifestMalformed(source: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, source: url.path)
    }

    /// The manifest as pretty-printed JSON with sorted keys (stable output for version control).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and integers cannot fail.
        return try! encoder.encode(self)
    }

    /// Writes the manifest to `url` atomically.
    ///
    /// - Throws: ``DigitalInkError/storageFailed(path:reason:)``.
    public func write(to url: URL) throws(DigitalInkError) {
        do {
            try encoded().write(to: url, options: .atomic)
        } catch {
            throw .storageFailed(path: url.path, reason: error.localizedDescription)
        }
    }

    /// A validated manifest for `models` whose files lie under `directory` (the future repository
    /// base): each file's size and SHA-256 are read from disk, whatever the entries said.
    ///
    /// - Throws: ``DigitalInkError/modelCorrupt(file:reason:)`` when a file cannot be read,
    ///   ``DigitalInkError/manifestMalformed(source:reason:)`` when the result is invalid.
    public static func make(for directory: URL, models: [Model]) throws(DigitalInkError) -> ModelManifest {
        var digests: [String: File] = [:]
        var result: [Model] = []
        for var model in models {
            for index in model.files.indices {
                let path = model.files[index].path
                try checkPath(path, source: directory.path)
                if let known = digests[path] {
                    model.files[index] = known
                } else {
                    let file = try File(path: path, in: directory)
                    digests[path] = file
                    model.files[index] = file
                }
            }
            result.append(model)
        }
        let manifest = ModelManifest(models: result)
        try manifest.validate(source: directory.appendingPathComponent(fileName).path)
        return manifest
    }

    // MARK: Validation

    /// Checks the rules every manifest must follow: a supported format version, unique
    /// identifiers and aliases, a version, at least one file and exactly one `config.json` per
    /// model, safe relative paths, 64-digit hexadecimal digests, and one size and digest per path.
    /// Sizes must lie in `0...maxFileSize`, and a model has at most ``maxFilesPerModel`` files, so
    /// that no total a client computes can overflow (a remote repository never crashes a client).
    ///
    /// - Throws: ``DigitalInkError/manifestMalformed(source:reason:)`` naming the first problem.
    public func validate(source: String = ModelManifest.fileName) throws(DigitalInkError) {
        func fail(_ reason: String) -> DigitalInkError { .manifestMalformed(source: source, reason: reason) }
        guard formatVersion == Self.currentFormatVersion else {
            throw fail("formatVersion \(formatVersion) is not supported (this library reads \(Self.currentFormatVersion))")
        }
        var names: [DigitalInkRecognitionModelIdentifier: DigitalInkRecognitionModelIdentifier] = [:]
        var filesByPath: [String: (File, DigitalInkRecognitionModelIdentifier)] = [:]
        for model in models {
            let id = model.identifier
            for name in [id] + model.aliases {
                if let owner = names[name] {
                    throw fail("\"\(name)\" names both \(owner) and \(id)")
                }
                names[name] = id
            }
            guard !model.version.isEmpty else { throw fail("model \(id) has an empty version") }
            guard !model.files.isEmpty else { throw fail("model \(id) lists no files") }
            let configs = model.files.filter { $0.fileName == "config.json" }
            guard configs.count == 1 else {
                throw fail("model \(id) lists \(configs.count) config.json files; it must list exactly one")
            }
            guard model.files.count <= Self.maxFilesPerModel else {
                throw fail("model \(id) lists \(model.files.count) files, more than \(Self.maxFilesPerModel)")
            }
            var seen = Set<String>()
            for file in model.files {
                try Self.checkPath(file.path, source: source)
                guard seen.insert(file.path).inserted else {
                    throw fail("model \(id) lists \(file.path) twice")
                }
                guard file.size >= 0 else { throw fail("\(file.path) has a negative size") }
                guard file.size <= Self.maxFileSize else {
                    throw fail("\(file.path) has size \(file.size), more than the limit of \(Self.maxFileSize) bytes")
                }
                guard file.sha256.count == 64, file.sha256.allSatisfy(\.isHexDigit) else {
                    throw fail("\(file.path) has sha256 \"\(file.sha256)\"; expected 64 hexadecimal digits")
                }
                if let (other, owner) = filesByPath[file.path], other != file {
                    throw fail("\(file.path) has a different size or digest in \(owner) and \(id)")
                }
                filesByPath[file.path] = (file, id)
            }
        }
    }

    /// The largest file a manifest may list: 1 TiB.
    public static let maxFileSize: Int64 = 1 << 40
    /// The most files one model may list: 10,000 (so a model's total size stays below 2^54 bytes).
    public static let maxFilesPerModel = 10_000

    /// Rejects paths that could leave the repository or the model store.
    static func checkPath(_ path: String, source: String) throws(DigitalInkError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let safe = !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\") && !path.contains("\0")
            && components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && !path.hasSuffix(".incomplete")
        guard safe else {
            throw .manifestMalformed(
                source: source,
                reason: "file path \"\(path)\" must be relative, use / separators, and contain no empty, . or .. components")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(at(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
