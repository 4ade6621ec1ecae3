import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads, verifies, lists and deletes recognition models, as ML Kit's `ModelManager`.
///
/// Models come from a ``ModelRepository`` (by default the models an app bundles in `Models/` of
/// its main bundle; or `DigitalInkModels.repository`, a directory, or an HTTP(S) server) and are
/// installed in a storage directory that the app controls. Models of a bundled or directory
/// repository are read where they are (``ModelRepository/readsInPlace``): installing one checks its
/// files once and copies nothing, so a bundled model takes its disk space once.
///
/// ```swift
/// let manager = ModelManager.shared
/// guard let id = try await manager.modelIdentifier(forLanguageTag: "en-US") else { return }
/// let model = DigitalInkRecognitionModel(modelIdentifier: id)
/// if !manager.isModelDownloaded(model) {
///     try await manager.download(model).wait()
/// }
/// let directory = try manager.modelDirectory(for: model)  // holds config.json
/// ```
///
/// Guarantees:
/// - Every file is transferred to a temporary `*.incomplete` name, checked for size and SHA-256,
///   and renamed into place; a model counts as downloaded only once all its files are verified
///   and its install record has been written (last, atomically). An app is never left with half
///   a model.
/// - An interrupted transfer resumes with an HTTP `Range` request, or restarts cleanly when the
///   server does not support ranges. A failed download leaves an earlier installed version
///   intact.
/// - An update (a new version in the manifest) is installed into a new directory, then the
///   record is switched atomically, then the old directory is removed.
/// - Concurrent downloads of one model share one transfer. Files shared by several models (same
///   path and digest) are stored once and deleted only when no installed model lists them.
/// - Deleting a model never affects data that other code has already loaded from it.
///
/// All methods may be called from any thread or task. One storage directory should be used by
/// one process at a time.
public final class ModelManager: Sendable {
    /// The manager for the models the app bundles (``ModelRepository/embedded``: `Models/` in the
    /// main bundle) and the default storage directory.
    public static let shared = ModelManager()

    /// The same as ``shared``.
    public static var `default`: ModelManager { shared }

    /// The same as ``shared``, spelled as ML Kit's `ModelManager.modelManager()`.
    public static func modelManager() -> ModelManager { shared }

    /// Where models are installed unless told otherwise: `$XDG_CACHE_HOME/digitalink-models`
    /// (or `~/.cache/digitalink-models`) on Linux, `Application Support/DigitalInk/Models` on
    /// Apple platforms.
    public static var defaultStorageDirectory: URL {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("DigitalInk", isDirectory: true)
            .appendingPathComponent("Models", isDirectory: true)
        #else
        return linuxStorageDirectory(environment: ProcessInfo.processInfo.environment,
                                     home: FileManager.default.homeDirectoryForCurrentUser)
        #endif
    }

    /// `$XDG_CACHE_HOME/digitalink-models` when `XDG_CACHE_HOME` is an absolute path (the XDG base
    /// directory specification ignores relative ones), else `home/.cache/digitalink-models`.
    static func linuxStorageDirectory(environment: [String: String], home: URL) -> URL {
        let cache: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            cache = home.appendingPathComponent(".cache", isDirectory: true)
        }
        return cache.appendingPathComponent("digitalink-models", isDirectory: true)
    }

    /// Where models are downloaded from.
    public let repository: ModelRepository
    /// Where models are installed.
    public let storageDirectory: URL

    let store: ModelStore
    let source: ModelSource
    let notificationCenter: NotificationCenter
    /// Free bytes on the storage volume (replaceable in tests).
    let availableCapacity: @Sendable () -> Int64?

    struct State {
        /// Running downloads, one per model.
        var operations: [DigitalInkRecognitionModelIdentifier: InstallOperation] = [:]
        /// Blobs running downloads need, with how many downloads need them: never collected.
        var pins: [String: Int] = [:]
        /// Blobs being transferred right now.
        var blobsInTransfer: Set<String> = []
    }

    let state = LockedState(State())

    /// A manager for `repository` that installs models in `storageDirectory`.
    ///
    /// - Parameters:
    ///   - repository: where models come from.
    ///   - storageDirectory: where they are installed; created when needed.
    ///   - session: HTTP transfers use a session with this session's configuration.
    ///   - notificationCenter: where download notifications are posted.
    public convenience init(
        repository: ModelRepository = .embedded,
        storageDirectory: URL = ModelManager.defaultStorageDirectory,
        session: URLSession = .shared,
        notificationCenter: NotificationCenter = .default
    ) {
        let store = ModelStore(root: storageDirectory)
        self.init(
            repository: repository, storageDirectory: storageDirectory, session: session,
            notificationCenter: notificationCenter, availableCapacity: { store.availableCapacity() })
    }

    init(
        repository: ModelRepository, storageDirectory: URL, session: URLSession,
        notificationCenter: NotificationCenter, availableCapacity: @escaping @Sendable () -> Int64?
    ) {
        self.repository = repository
        self.storageDirectory = storageDirectory
        self.store = ModelStore(root: storageDirectory)
        self.source = ModelSource(repository: repository, session: session)
        self.notificationCenter = notificationCenter
        self.availableCapacity = availableCapacity
    }

    // MARK: Repository

    /// Reads the repository's manifest: every model it offers, with versions and sizes.
    ///
    /// - Throws: ``DigitalInkError/downloadFailed(url:status:reason:)`` or
    ///   ``DigitalInkError/manifestMalformed(source:reason:)``.
    public func fetchManifest(conditions: ModelDownloadConditions = ModelDownloadConditions()) async throws(DigitalInkError) -> ModelManifest {
        try await withRetries(conditions) { () async throws(DigitalInkError) in
            try await source.fetchManifest(conditions: conditions)
        }
    }

    /// Completion-handler variant of ``fetchManifest(conditions:)``.
    public func fetchManifest(
        conditions: ModelDownloadConditions = ModelDownloadConditions(),
        completion: @escaping @Sendable (Result<ModelManifest, DigitalInkError>) -> Void
    ) {
        Task {
            do throws(DigitalInkError) {
                completion(.success(try await fetchManifest(conditions: conditions)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// The identifier of the repository's model that best serves `languageTag` (matching as in
    /// ``DigitalInkRecognitionModelIdentifier/from(languageTag:)``), or nil when none fits.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` for a malformed tag,
    ///   and the errors of ``fetchManifest(conditions:)``.
    public func modelIdentifier(forLanguageTag languageTag: String) async throws(DigitalInkError) -> DigitalInkRecognitionModelIdentifier? {
        let requested = try DigitalInkRecognitionModelIdentifier(languageTag: languageTag)
        return DigitalInkRecognitionModelIdentifier.bestMatch(for: requested, in: try await fetchManifest())
    }

    // MARK: Installed models

    /// True when the model is installed: all its files verified and in place.
    public func isModelDownloaded(_ model: DigitalInkRecognitionModel) -> Bool {
        guard let record = store.record(model.modelIdentifier) else { return false }
        return store.isComplete(record)
    }

    /// The installed models.
    public func downloadedModels() -> Set<DigitalInkRecognitionModel> {
        Set(installedModels().map(\.model))
    }

    /// The installed models with their versions, directories and files, sorted by identifier.
    public func installedModels() -> [InstalledModel] {
        store.allRecords().filter { store.isComplete($0) }.compactMap(installedModel(from:))
            .sorted { $0.model.modelIdentifier < $1.model.modelIdentifier }
    }

    /// The installed version of `model`, or nil when it is not installed.
    public func installedModel(_ model: DigitalInkRecognitionModel) -> InstalledModel? {
        guard let record = store.record(model.modelIdentifier), store.isComplete(record) else { return nil }
        return installedModel(from: record)
    }

    /// True while a download of `model` runs.
    public func isDownloading(_ model: DigitalInkRecognitionModel) -> Bool {
        state.withLock { $0.operations[model.modelIdentifier] != nil }
    }

    /// The directory holding the installed model's `config.json`, which the recognizer loads
    /// (config.json names the other files by paths relative to itself).
    ///
    /// - Throws: ``DigitalInkError/modelNotDownloaded(identifier:)`` when the model is not
    ///   installed, ``DigitalInkError/modelCorrupt(file:reason:)`` when files of an installed model
    ///   have gone missing or changed size since.
    public func modelDirectory(for model: DigitalInkRecognitionModel) throws(DigitalInkError) -> URL {
        guard let record = store.record(model.modelIdentifier) else {
            throw .modelNotDownloaded(identifier: model.modelIdentifier.languageTag)
        }
        let base = store.installURL(record)
        for file in record.files {
            let url = store.fileURL(file.path, under: base)
            guard store.fileSize(url) == file.size else {
                throw .modelCorrupt(
                    file: url.path,
                    reason: "missing or resized since it was installed; delete the model and download it again")
            }
        }
        guard let directory = store.modelDirectory(record) else {
            throw .modelCorrupt(file: store.recordURL(record.identifier).path, reason: "the install record names no config.json")
        }
        return directory
    }

    func installedModel(from record: InstallRecord) -> InstalledModel? {
        guard let directory = store.modelDirectory(record) else { return nil }
        return InstalledModel(
            model: DigitalInkRecognitionModel(modelIdentifier: record.identifier), version: record.version,
            kind: record.kind, network: record.network, license: record.license, modelDirectory: directory,
            files: record.files, installedAt: record.installedAt)
    }

    // MARK: Download

    /// Starts downloading `model`, or joins the download of it that is already running, and
    /// returns a handle for progress and the outcome.
    ///
    /// When the repository's version is already installed, the handle finishes at once without
    /// transferring files. Otherwise the new version is installed next to the old one, which is
    /// removed only after the new one is verified and in place. A notification
    /// (``Foundation/NSNotification/Name/digitalInkModelDownloadDidSucceed`` or
    /// ``Foundation/NSNotification/Name/digitalInkModelDownloadDidFail``) is posted once per
    /// transfer, before the handles finish.
    ///
    /// A caller that joins a running download shares its conditions.
    @discardableResult
    public func download(
        _ model: DigitalInkRecognitionModel,
        conditions: ModelDownloadConditions = ModelDownloadConditions()
    ) -> ModelDownload {
        let operation = state.withLock { state -> InstallOperation in
            if let running = state.operations[model.modelIdentifier] { return running }
            let operation = InstallOperation(model: model)
            state.operations[model.modelIdentifier] = operation
            operation.setTask(Task { await self.run(operation, conditions: conditions) })
            return operation
        }
        let handle = ModelDownload(operation: operation)
        operation.attach(handle)
        return handle
    }

    /// Completion-handler variant of ``download(_:conditions:)``: `progressHandler` receives each
    /// progress event and `completion` the outcome, on an arbitrary thread.
    ///
    /// When `progressHandler` is given, the returned handle's event sequence is already being
    /// iterated: use its `progress`, ``ModelDownload/wait()`` or ``ModelDownload/cancel()``, not
    /// `for await`.
    @discardableResult
    public func download(
        _ model: DigitalInkRecognitionModel,
        conditions: ModelDownloadConditions = ModelDownloadConditions(),
        progressHandler: (@Sendable (ModelDownloadProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<InstalledModel, DigitalInkError>) -> Void
    ) -> ModelDownload {
        let handle = download(model, conditions: conditions)
        Task {
            if let progressHandler {
                do {
                    for try await event in handle { progressHandler(event) }
                } catch {}
            }
            completion(await handle.outcome())
        }
        return handle
    }

    // MARK: Delete

    /// Deletes an installed model. A running download of it is cancelled first.
    ///
    /// Files another installed model lists stay. Data other code has already read from the
    /// model's files is unaffected; ``modelDirectory(for:)`` throws
    /// ``DigitalInkError/modelNotDownloaded(identifier:)`` afterwards.
    ///
    /// Deleting a model that is not installed does nothing (but remove what an interrupted download of
    /// it left), as in ML Kit.
    ///
    /// - Throws: ``DigitalInkError/storageFailed(path:reason:)`` when the record cannot be removed,
    ///   ``DigitalInkError/cancelled`` when the task is cancelled while another process holds the
    ///   store.
    public func deleteDownloadedModel(_ model: DigitalInkRecognitionModel) async throws(DigitalInkError) {
        let identifier = model.modelIdentifier
        if let running = state.withLock({ $0.operations[identifier] }) {
            running.cancel()
            await running.waitUntilFinished()
        }
        let lock = try await StoreLock.acquire(root: storageDirectory)
        defer { withExtendedLifetime(lock) {} }
        try store.removeRecord(identifier)  // from here on the model is not installed
        store.removeOtherInstallDirectories(identifier, keeping: nil)
        store.removeItem(store.modelRoot(identifier))
        collectGarbage(includingPartials: true)
    }

    /// Completion-handler variant of ``deleteDownloadedModel(_:)``; `completion` receives nil on
    /// success.
    public func deleteDownloadedModel(
        _ model: DigitalInkRecognitionModel, completion: @escaping @Sendable (DigitalInkError?) -> Void
    ) {
        Task {
            do throws(DigitalInkError) {
                try await deleteDownloadedModel(model)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Removes blobs no installed model lists and no running download needs.
    func collectGarbage(includingPartials: Bool) {
        state.withLock { state in
            store.collectGarbage(pinned: Set(state.pins.keys), includingPartials: includingPartials)
        }
    }
}
