import DigitalInk
import Foundation

/// One recognizer per model, shared by every request; models are installed (from the repository) and
/// loaded when the server starts, or on first use.
actor RecognizerPool {
    let manager: ModelManager
    private var manifest: ModelManifest?
    private var recognizers: [DigitalInkRecognitionModelIdentifier: DigitalInkRecognizer] = [:]
    private var loading: [DigitalInkRecognitionModelIdentifier: Task<DigitalInkRecognizer, any Error>] = [:]

    init(manager: ModelManager) { self.manager = manager }

    /// The repository's manifest (read once).
    func repositoryManifest() async throws -> ModelManifest {
        if let manifest { return manifest }
        let m = try await manager.fetchManifest()
        manifest = m
        return m
    }

    /// The model identifier for `languageTag`. Throws 400 for a malformed tag, 404 for a tag that no
    /// model of the repository serves.
    func identifier(for languageTag: String) async throws -> DigitalInkRecognitionModelIdentifier {
        let manifest = try await repositoryManifest()
        let id: DigitalInkRecognitionModelIdentifier?
        do { id = try DigitalInkRecognitionModelIdentifier.from(languageTag: languageTag, in: manifest) } catch {
            throw ServerError(.badRequest, "\"\(languageTag)\" is not a language tag: \(error)", field: "language")
        }
        guard let id else {
            throw ServerError(.notFound, "no model for language \"\(languageTag)\"; GET /v1/models lists them", field: "language")
        }
        return id
    }

    /// The loaded recognizer for `id`, or 503 when it is not loaded (yet).
    func loadedRecognizer(_ id: DigitalInkRecognitionModelIdentifier) throws -> DigitalInkRecognizer {
        if let r = recognizers[id] { return r }
        if loading[id] != nil { throw ServerError(.serviceUnavailable, "model \(id.languageTag) is still loading; try again shortly") }
        throw ServerError(.serviceUnavailable, "model \(id.languageTag) is not installed on this server; start it with --language \(id.languageTag)")
    }

    /// Installs (from the repository, when needed) and loads the model for `languageTag`.
    func load(_ languageTag: String) async throws {
        let id = try await identifier(for: languageTag)
        if recognizers[id] != nil { return }
        let manager = self.manager
        let task = loading[id] ?? Task {
            let model = DigitalInkRecognitionModel(modelIdentifier: id)
            if !manager.isModelDownloaded(model) { _ = try await manager.download(model).wait() }
            let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
            try await recognizer.load()
            return recognizer
        }
        loading[id] = task
        defer { loading[id] = nil }
        recognizers[id] = try await task.value
    }

    /// Loaded models' tags.
    var loadedTags: [String] { recognizers.keys.map(\.languageTag).sorted() }
}
