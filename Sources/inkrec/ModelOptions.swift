import ArgumentParser
import DigitalInk
import DigitalInkModels
import Foundation

/// Options shared by the commands that need a model.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "Model language tag (BCP-47), or a ML Kit identifier such as zxx-Zsym-x-shapes.")
    var language: String = "en-US"

    @Option(name: .long, help: "Base URL of a model repository (default: the models built into inkrec, or the directory in DIGITALINK_MODELS).")
    var repository: String?

    @Option(name: .long, help: "Directory holding the model storage (default: the platform cache).")
    var storage: String?

    func manager() throws -> ModelManager {
        var repo = Self.builtInRepository
        if let r = repository {
            guard let url = URL(string: r), url.scheme != nil else { throw ValidationError("not a URL: \(r)") }
            repo = url.isFileURL ? .directory(url) : .remote(url)
        }
        return ModelManager(repository: repo, storageDirectory: storage.map { URL(fileURLWithPath: $0) } ?? ModelManager.defaultStorageDirectory)
    }

    /// The models built into inkrec (the `DigitalInkModels` resources), or the directory named by
    /// `DIGITALINK_MODELS` when it is set (a checkout's `Models/` while developing models).
    static var builtInRepository: ModelRepository {
        if let path = ProcessInfo.processInfo.environment["DIGITALINK_MODELS"], !path.isEmpty {
            return .directory(URL(fileURLWithPath: path, isDirectory: true))
        }
        return DigitalInkModels.repository
    }

    /// The installed model that `--language` names, matched against the installed models alone (for
    /// use without the repository); nil when none fits.
    func installedModel(in manager: ModelManager) throws -> InstalledModel? {
        let installed = manager.installedModels()
        let manifest = ModelManifest(models: installed.map {
            ModelManifest.Model(identifier: $0.model.modelIdentifier, version: $0.version, kind: $0.kind, license: $0.license, files: $0.files)
        })
        guard let id = try DigitalInkRecognitionModelIdentifier.from(languageTag: language, in: manifest) else { return nil }
        return installed.first { $0.model.modelIdentifier == id }
    }

    /// The model for `--language`, matched against the repository's manifest.
    func model(in manifest: ModelManifest) throws -> DigitalInkRecognitionModel {
        guard let id = try DigitalInkRecognitionModelIdentifier.from(languageTag: language, in: manifest) else {
            throw ValidationError("unknown language \"\(language)\"; `inkrec models list` shows the models")
        }
        return DigitalInkRecognitionModel(modelIdentifier: id)
    }

    /// Recognizer options for the model in `modelDirectory`, or else for `--language` (installed
    /// or updated from the repository when needed).
    func recognizerOptions(modelDirectory: String?) async throws -> DigitalInkRecognizerOptions {
        if let dir = modelDirectory { return DigitalInkRecognizerOptions(modelDirectory: URL(fileURLWithPath: dir)) }
        let manager = try manager()
        return DigitalInkRecognizerOptions(model: try await ensureInstalled(manager), modelManager: manager)
    }

    /// The model for `--language`, installed or updated from the repository when needed. When the
    /// repository cannot be reached, or an update fails, an installed model is used with a warning
    /// (a downloaded model works offline).
    func ensureInstalled(_ manager: ModelManager) async throws -> DigitalInkRecognitionModel {
        let manifest: ModelManifest
        do {
            manifest = try await manager.fetchManifest()
        } catch {
            guard let installed = try installedModel(in: manager) else { throw error }
            printError("warning: cannot read the repository (\(error)); using the installed \(installed.model.modelIdentifier.languageTag) \(installed.version)")
            return installed.model
        }
        let m = try model(in: manifest)
        let available = manifest.models.first { $0.model == m }?.version
        if !manager.isModelDownloaded(m) {
            printError("Installing model \(m.modelIdentifier.languageTag) from \(manager.repository)…")
            _ = try await manager.download(m).wait()
        } else if let available, let installed = manager.installedModel(m)?.version, installed != available {
            printError("Updating model \(m.modelIdentifier.languageTag) from version \(installed) to \(available)…")
            do {
                _ = try await manager.download(m).wait()
            } catch {
                printError("warning: the update failed (\(error)); using the installed version \(installed)")
            }
        }
        return m
    }
}
