import Foundation

/// The install pipeline behind ``ModelManager/download(_:conditions:)``.
extension ModelManager {
    /// Runs one operation to its end, posts the notification, then finishes the handles.
    func run(_ operation: InstallOperation, conditions: ModelDownloadConditions) async {
        let result: Result<InstalledModel, DigitalInkError>
        do throws(DigitalInkError) {
            result = .success(try await install(operation, conditions: conditions))
        } catch {
            result = .failure(error)
        }
        let identifier = operation.model.modelIdentifier
        state.withLock { state in
            if state.operations[identifier] === operation { state.operations[identifier] = nil }
        }
        switch result {
        case .success:
            notificationCenter.post(
                name: .digitalInkModelDownloadDidSucceed, object: self,
                userInfo: [ModelDownloadUserInfoKey.model.rawValue: operation.model,
                           ModelDownloadUserInfoKey.remoteModel.rawValue: operation.model])
        case .failure(let error):
            notificationCenter.post(
                name: .digitalInkModelDownloadDidFail, object: self,
                userInfo: [ModelDownloadUserInfoKey.model.rawValue: operation.model,
                           ModelDownloadUserInfoKey.error.rawValue: error,
                           ModelDownloadUserInfoKey.remoteModel.rawValue: operation.model,
                           ModelDownloadUserInfoKey.mlKitError.rawValue: error])
        }
        operation.finish(result)
    }

    /// Fetches the manifest, transfers and verifies the missing files, builds the version
    /// directory and writes the install record.
    func install(_ operation: InstallOperation, conditions: ModelDownloadConditions) async throws(DigitalInkError) -> InstalledModel {
        let model = operation.model
        let identifier = model.modelIdentifier
        var progress = ModelDownloadProgress(model: model, phase: .fetchingManifest)
        operation.publish(progress)

        let manifest = try await fetchManifest(conditions: conditions)
        guard let entry = manifest.model(for: identifier) else {
            throw .modelNotFound(identifier: identifier.languageTag)
        }
        var seen = Set<String>()
        let files = entry.files.filter { seen.insert($0.sha256).inserted }  // one transfer per content
        progress.version = entry.version
        progress.totalBytes = ModelManifest.File.totalSize(files)
        progress.totalFiles = files.count
        try checkCancellation()

        func alreadyInstalled() -> InstalledModel? {
            guard let record = store.record(identifier), record.version == entry.version,
                  Set(record.files) == Set(entry.files), store.isComplete(record) else { return nil }
            return installedModel(from: record)
        }
        func finished(_ installed: InstalledModel) -> InstalledModel {
            progress.phase = .installed
            progress.completedBytes = progress.totalBytes
            progress.completedFiles = progress.totalFiles
            operation.publish(progress)
            return installed
        }
        if let installed = alreadyInstalled() { return finished(installed) }
        // One install or delete at a time per store, across processes; another may have installed
        // this version while this one waited.
        let lock = try await StoreLock.acquire(root: storageDirectory)
        defer { withExtendedLifetime(lock) {} }
        if let installed = alreadyInstalled() { return finished(installed) }
        if repository.readsInPlace {
            return finished(try installInPlace(entry, files: files, operation: operation, progress: progress))
        }

        pin(files)
        defer { unpin(files) }
        try store.prepare()
        // Blobs already here (shared with installed models, or left by an earlier attempt) are
        // read and checked, never trusted for being present; damaged ones are transferred again.
        var present = Set<String>()
        for file in files {
            try checkCancellation()
            switch store.checkBlob(file) {
            case .valid: present.insert(file.sha256)
            case .damaged: progress.damagedFiles.append(file.path)
            case .missing: break
            }
        }
        let needed = files.filter { !present.contains($0.sha256) }
            .reduce(Int64(0)) { $0 + $1.size - store.partialSize($1) }
        if needed > 0, let free = availableCapacity(), free < needed {
            throw .storageFailed(
                path: storageDirectory.path,
                reason: "the disk is full: the model needs \(needed) more bytes, \(free) are available")
        }

        progress.phase = .downloading
        for file in files {
            try checkCancellation()
            if !present.contains(file.sha256) {
                try await withBlobTransfer(file) { () async throws(DigitalInkError) in
                    // Another download may have transferred it meanwhile.
                    guard store.checkBlob(file) != .valid else { return }
                    try await fetchBlob(file, conditions: conditions, operation: operation, progress: progress)
                    store.relinkInstalledCopies(of: file)
                }
            }
            progress.completedBytes += file.size
            progress.completedFiles += 1
            progress.currentFile = nil
            operation.publish(progress)
        }
        try checkCancellation()

        progress.phase = .installing
        operation.publish(progress)
        let name = store.newDirectoryName(version: entry.version)
        try store.buildInstallDirectory(identifier: identifier, name: name, files: entry.files)
        let record = InstallRecord(
            identifier: identifier, version: entry.version, kind: entry.kind, network: entry.network,
            license: entry.license, directory: name, files: entry.files, installedAt: Date(),
            repository: repository.description)
        do {
            try store.write(record)  // the commit point
        } catch {
            store.removeItem(store.installURL(record))
            throw error
        }
        store.removeOtherInstallDirectories(identifier, keeping: name)
        collectGarbage(includingPartials: false)

        progress.phase = .installed
        operation.publish(progress)
        guard let installed = installedModel(from: record) else {
            throw .modelCorrupt(file: store.recordURL(identifier).path, reason: "the install record names no config.json")
        }
        return installed
    }

    /// Installs a model of a local repository (``ModelRepository/readsInPlace``) without copying it:
    /// every file is read once and checked for size and SHA-256 where it is, then the record names
    /// the repository's directory. Nothing is written to the repository; copies an earlier version
    /// left in the store are removed.
    func installInPlace(_ entry: ModelManifest.Model, files: [ModelManifest.File], operation: InstallOperation,
                        progress: ModelDownloadProgress) throws(DigitalInkError) -> InstalledModel {
        var progress = progress
        progress.phase = .verifying
        for file in files {
            try checkCancellation()
            progress.currentFile = file.path
            operation.publish(progress)
            let url = repository.url(forPath: file.path)
            guard ModelStore.fileSizeOfItem(url) != nil else {
                throw .downloadFailed(url: url.path, status: nil, reason: "the repository has no such file")
            }
            try FileDigest(of: url).verify(against: file)
            progress.completedBytes += file.size
            progress.completedFiles += 1
        }
        try checkCancellation()
        let identifier = entry.identifier
        let record = InstallRecord(
            identifier: identifier, version: entry.version, kind: entry.kind, network: entry.network,
            license: entry.license, directory: "", files: entry.files, installedAt: Date(),
            repository: repository.description, location: repository.baseURL.standardizedFileURL.path)
        try store.prepare()
        try store.write(record)  // the commit point
        store.removeOtherInstallDirectories(identifier, keeping: nil)
        collectGarbage(includingPartials: false)
        guard let installed = installedModel(from: record) else {
            throw .modelCorrupt(file: store.recordURL(identifier).path, reason: "the install record names no config.json")
        }
        return installed
    }

    /// Transfers one file into its blob: to `<sha256>.incomplete`, then size and SHA-256 check,
    /// then an atomic rename. Retries transient failures, resuming where the last attempt
    /// stopped; a resumed file that fails verification is transferred once more from the start.
    func fetchBlob(
        _ file: ModelManifest.File, conditions: ModelDownloadConditions,
        operation: InstallOperation, progress: ModelDownloadProgress
    ) async throws(DigitalInkError) {
        let partial = store.partialBlobURL(file.sha256)
        let base = progress.completedBytes
        var progress = progress
        progress.currentFile = file.path
        var attempt = 0
        var restarted = false
        while true {
            let resumedFrom = repository.isLocal ? 0 : store.partialSize(file)
            do throws(DigitalInkError) {
                let event = progress
                try await source.fetch(file, to: partial, conditions: conditions) { bytes in
                    var update = event
                    update.completedBytes = base + bytes
                    operation.publish(update)
                }
                let size = store.partialSize(file)
                guard size >= file.size else {
                    throw .downloadFailed(
                        url: repository.url(forPath: file.path).absoluteString, status: nil,
                        reason: "the transfer ended after \(size) of \(file.size) bytes")
                }
                progress.phase = .verifying
                progress.completedBytes = base + size
                operation.publish(progress)
                try FileDigest(of: partial).verify(against: file)
                try store.commitBlob(file)
                return
            } catch {
                if case .checksumMismatch = error {
                    store.removeItem(partial)  // never resume from bytes that failed verification
                    if resumedFrom > 0, !restarted {
                        // The kept bytes may be stale (the file changed on the server): start over once.
                        restarted = true
                        progress.phase = .downloading
                        continue
                    }
                }
                guard attempt < conditions.maximumRetryCount, isRetryable(error) else { throw error }
                attempt += 1
                progress.phase = .downloading
                try await backOff(attempt)
            }
        }
    }

    /// Runs `body` with retries for transient network failures.
    func withRetries<T>(
        _ conditions: ModelDownloadConditions, _ body: () async throws(DigitalInkError) -> T
    ) async throws(DigitalInkError) -> T {
        var attempt = 0
        while true {
            do throws(DigitalInkError) {
                return try await body()
            } catch {
                guard attempt < conditions.maximumRetryCount, isRetryable(error) else { throw error }
                attempt += 1
                try await backOff(attempt)
            }
        }
    }

    /// Network failures, cut-off bodies and server errors are worth retrying; missing files,
    /// bad checksums, storage errors and local repositories are not.
    func isRetryable(_ error: DigitalInkError) -> Bool {
        guard !repository.isLocal, case .downloadFailed(_, let status, _) = error else { return false }
        guard let status else { return true }
        return status >= 500 || status == 408 || status == 416 || status == 429
    }

    /// Waits before retry number `attempt`: 200 ms, 400 ms, … up to 2 s.
    func backOff(_ attempt: Int) async throws(DigitalInkError) {
        do {
            try await Task.sleep(for: .milliseconds(min(2000, 100 << min(attempt, 5))))
        } catch {
            throw .cancelled
        }
    }

    func checkCancellation() throws(DigitalInkError) {
        if Task.isCancelled { throw .cancelled }
    }

    // MARK: Blob coordination

    /// Keeps the blobs of `files` from being collected while a download needs them.
    func pin(_ files: [ModelManifest.File]) {
        state.withLock { state in
            for file in files { state.pins[file.sha256, default: 0] += 1 }
        }
    }

    func unpin(_ files: [ModelManifest.File]) {
        state.withLock { state in
            for file in files {
                let count = (state.pins[file.sha256] ?? 1) - 1
                state.pins[file.sha256] = count > 0 ? count : nil
            }
        }
    }

    /// Runs `body` while no other download transfers the same blob (downloads of two models
    /// that share a file).
    func withBlobTransfer(
        _ file: ModelManifest.File, _ body: () async throws(DigitalInkError) -> Void
    ) async throws(DigitalInkError) {
        while !state.withLock({ $0.blobsInTransfer.insert(file.sha256).inserted }) {
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw .cancelled
            }
        }
        defer { state.withLock { _ = $0.blobsInTransfer.remove(file.sha256) } }
        try await body()
    }
}
