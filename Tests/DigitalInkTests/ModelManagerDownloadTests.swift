import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Downloads over real HTTP connections to a server on 127.0.0.1 (see TestHTTPServer).
/// (The time limit only catches a hang: under the whole test run's parallel load on two cores a
/// test waits for the compute threads every other suite uses; a clean-clone run took 50 s of a
/// one-minute limit here.)
@Suite("ModelManager downloads", .timeLimit(.minutes(10)))
struct ModelManagerDownloadTests {
    @Test func downloadsVerifiesAndInstallsWithProgress() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()
        let model = fixture.model
        #expect(!manager.isModelDownloaded(model))
        #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) { try manager.modelDirectory(for: model) }

        let download = manager.download(model, conditions: ModelTestFixture.conditions())
        var events: [ModelDownloadProgress] = []
        for try await event in download { events.append(event) }
        let installed = try #require(try await outcome(of: download).success)

        // Progress: starts with the manifest, only grows, ends installed at 100 %.
        let entry = try #require(fixture.manifest.model(for: model.modelIdentifier))
        #expect(events.first?.phase == .fetchingManifest)
        #expect(events.last?.phase == .installed)
        #expect(events.last?.fractionCompleted == 1)
        #expect(events.contains { $0.phase == .downloading && $0.completedBytes > 0 && $0.completedBytes < entry.totalSize })
        #expect(events.contains { $0.phase == .verifying })
        let bytes = events.map(\.completedBytes)
        #expect(bytes == bytes.sorted())
        #expect(events.last?.totalBytes == entry.totalSize)
        #expect(events.last?.totalFiles == entry.files.count)
        #expect(download.progress.totalUnitCount == entry.totalSize)
        #expect(download.progress.completedUnitCount == entry.totalSize)
        #expect(download.progress.fractionCompleted == 1)

        // Installed: the model directory holds config.json, and every file is byte-identical.
        #expect(manager.isModelDownloaded(model))
        #expect(manager.downloadedModels() == [model])
        let directory = try manager.modelDirectory(for: model)
        #expect(directory == installed.modelDirectory)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("config.json").path))
        #expect(try Data(contentsOf: directory.appendingPathComponent("../shared/latn-v1/weights.safetensors").standardized)
            == ModelTestFixture.sharedWeights)
        for file in entry.files {
            let installedFile = directory.deletingLastPathComponent().appendingPathComponent(file.path)
            #expect(FileDigest(of: try Data(contentsOf: installedFile)).sha256 == file.sha256)
        }
        #expect(installed.version == "1.0.0")
        #expect(installed.license == "CC-BY-4.0")
        #expect(installed.network == "latn-v1")
        #expect(manager.installedModels().map(\.model) == [model])
        #expect(fixture.incompleteFiles().isEmpty)

        // One request per file plus the manifest; ML Kit-style notification with the model.
        #expect(fixture.server.requests.count == entry.files.count + 1)
        let notes = recorder.notifications
        #expect(notes.map(\.name) == [.digitalInkModelDownloadDidSucceed])
        #expect(notes.first?.userInfo?[ModelDownloadUserInfoKey.model.rawValue] as? DigitalInkRecognitionModel == model)
        #expect(notes.first?.userInfo?["MLKModelDownloadUserInfoKeyRemoteModel"] as? DigitalInkRecognitionModel == model)
        #expect(notes.first?.object as? ModelManager === manager)
    }

    @Test func anInstalledModelIsNotDownloadedAgain() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let before = fixture.server.requests.count
        let again = try #require(try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions())).success)
        #expect(fixture.server.requests.count == before + 1)  // the manifest only
        #expect(fixture.server.requests.last?.path == "manifest.json")
        #expect(again.modelDirectory == (try manager.modelDirectory(for: fixture.model)))
    }

    @Test func notFoundIsTyped() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()

        // A model the repository does not list.
        let german = ModelTestFixture.model("de-DE")
        let missing = try await outcome(of: manager.download(german, conditions: ModelTestFixture.conditions()))
        #expect(missing.failure == .modelNotFound(identifier: "de-DE"))

        // A file the manifest lists but the server does not have: HTTP 404, never retried.
        fixture.server.setBehavior(.status(404), for: "en-US/lm.bin")
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions(retries: 3)))
        guard case .downloadFailed(let url, let status, _) = result.failure else {
            Issue.record("expected downloadFailed, got \(result)")
            return
        }
        #expect(status == 404)
        #expect(url.hasSuffix("/en-US/lm.bin"))
        #expect(fixture.server.requests(for: "en-US/lm.bin").count == 1)
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) { try manager.modelDirectory(for: fixture.model) }

        let failures = recorder.notifications.filter { $0.name == .digitalInkModelDownloadDidFail }
        #expect(failures.count == 2)
        #expect(failures.last?.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? DigitalInkError == result.failure)
        #expect(failures.last?.userInfo?[ModelDownloadUserInfoKey.model.rawValue] as? DigitalInkRecognitionModel == fixture.model)
        #expect(failures.last?.userInfo?["MLKModelDownloadUserInfoKeyError"] as? DigitalInkError == result.failure)
        #expect(failures.last?.userInfo?["MLKModelDownloadUserInfoKeyRemoteModel"] as? DigitalInkRecognitionModel == fixture.model)

        // A missing manifest.
        fixture.server.removeFile("manifest.json")
        let noManifest = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .downloadFailed(_, 404, _) = noManifest.failure else {
            Issue.record("expected downloadFailed 404, got \(noManifest)")
            return
        }
    }

    @Test func serverErrorsAreRetriedThenReported() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setBehavior(.status(500), for: "en-US/lm.bin")
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions(retries: 1)))
        guard case .downloadFailed(_, 500, _) = result.failure else {
            Issue.record("expected downloadFailed 500, got \(result)")
            return
        }
        #expect(fixture.server.requests(for: "en-US/lm.bin").count == 2)  // first try + one retry
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(fixture.blobs().isEmpty == false)  // files verified before the failure stay for next time
    }

    @Test func aDownloadAfterAFailureSucceeds() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setBehavior(.status(503), for: "en-US/config.json")
        let failed = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(failed.failure != nil)
        #expect(!manager.isModelDownloaded(fixture.model))

        fixture.server.setBehavior(.normal, for: "en-US/config.json")
        let installed = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(installed.success != nil)
        #expect(manager.isModelDownloaded(fixture.model))
        // Files verified during the failed attempt were kept, not transferred again.
        for path in ["en-US/lm.bin", ModelTestFixture.sharedWeightsPath] {
            #expect(fixture.server.requests(for: path).count == 1, "\(path)")
        }
    }

    @Test func aBodyCutOffHalfWayResumesWithRange() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let path = ModelTestFixture.sharedWeightsPath
        let half = ModelTestFixture.sharedWeights.count / 2
        fixture.server.setBehavior(.cutOff(afterBytes: half, times: 1), for: path)

        // Without retries the download fails, keeps the partial file, and installs nothing.
        let failed = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .downloadFailed(_, nil, _) = failed.failure else {
            Issue.record("expected a network failure, got \(failed)")
            return
        }
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(fixture.incompleteFiles().count == 1)

        // The next download asks only for the rest.
        let installed = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(installed.success != nil)
        let requests = fixture.server.requests(for: path)
        #expect(requests.count == 2)
        #expect(requests.first?.headers["range"] == nil)
        #expect(requests.last?.headers["range"] == "bytes=\(half)-")
        #expect(manager.isModelDownloaded(fixture.model))
        #expect(fixture.incompleteFiles().isEmpty)
        let directory = try manager.modelDirectory(for: fixture.model)
        #expect(try Data(contentsOf: directory.deletingLastPathComponent().appendingPathComponent(path)) == ModelTestFixture.sharedWeights)
    }

    @Test func aCutOffTransferIsRetriedWithinOneDownload() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let path = "en-US/lm.bin"
        fixture.server.setBehavior(.cutOff(afterBytes: 1000, times: 1), for: path)
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions(retries: 2)))
        #expect(result.success != nil)
        #expect(fixture.server.requests(for: path).map { $0.headers["range"] } == [nil, "bytes=1000-"])
    }

    @Test func aServerIgnoringRangeRestartsCleanly() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let path = "en-US/lm.bin"
        fixture.server.setBehavior(.cutOff(afterBytes: 1000, times: 1), for: path)
        _ = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        fixture.server.setBehavior(.ignoreRange, for: path)
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(result.success != nil)
        #expect(fixture.server.requests(for: path).last?.headers["range"] == "bytes=1000-")
        let directory = try manager.modelDirectory(for: fixture.model)
        let lm = try Data(contentsOf: directory.appendingPathComponent("lm.bin"))
        #expect(FileDigest(of: lm).sha256 == fixture.manifest.models[0].files.first { $0.path == path }?.sha256)
    }

    @Test func leftoverPartialFilesAreVerifiedBeforeUse() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let entry = fixture.manifest.models[0]
        let lm = try #require(entry.files.first { $0.path == "en-US/lm.bin" })
        let weights = try #require(entry.files.first { $0.path == ModelTestFixture.sharedWeightsPath })
        let blobs = fixture.storageDirectory.appendingPathComponent("blobs")
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
        // A complete, correct partial file (as after a crash before the rename) …
        try ModelTestFixture.bytes(48 * 1024, seed: 2).write(to: blobs.appendingPathComponent(lm.sha256 + ".incomplete"))
        // … and a complete but stale one (the file changed on the server since).
        try ModelTestFixture.bytes(Int(weights.size), seed: 77).write(to: blobs.appendingPathComponent(weights.sha256 + ".incomplete"))

        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(result.success != nil)
        #expect(fixture.server.requests(for: lm.path).isEmpty)  // verified in place, not transferred
        #expect(fixture.server.requests(for: weights.path).map { $0.headers["range"] } == [nil])  // restarted whole
        let directory = try manager.modelDirectory(for: fixture.model)
        #expect(try Data(contentsOf: directory.deletingLastPathComponent().appendingPathComponent(weights.path))
            == ModelTestFixture.sharedWeights)
        #expect(fixture.incompleteFiles().isEmpty)
    }

    @Test func aWrongChecksumIsRejectedAndNothingIsInstalled() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()
        let path = "en-US/lm.bin"
        let expected = try #require(fixture.manifest.models[0].files.first { $0.path == path })
        var tampered = ModelTestFixture.bytes(Int(expected.size), seed: 2)
        tampered[100] ^= 0xFF  // same size, different contents
        fixture.server.setFile(path, tampered)

        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions(retries: 2)))
        guard case .checksumMismatch(let file, let wanted, let actual) = result.failure else {
            Issue.record("expected checksumMismatch, got \(result)")
            return
        }
        #expect(file == path)
        #expect(wanted.contains(expected.sha256))
        #expect(actual.contains(FileDigest(of: tampered).sha256))
        #expect(fixture.server.requests(for: path).count == 1)  // not retried
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(!fixture.blobs().contains(expected.sha256))
        #expect(fixture.incompleteFiles().isEmpty)
        #expect(recorder.names() == [.digitalInkModelDownloadDidFail])

        // A body longer than the manifest says is cut short and rejected too.
        fixture.server.setFile(path, tampered + Data(count: 10))
        let longer = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .checksumMismatch = longer.failure else {
            Issue.record("expected checksumMismatch, got \(longer)")
            return
        }
        #expect(!manager.isModelDownloaded(fixture.model))
    }

    @Test func aModelInFlightCountsOnlyAfterVerification() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let path = "en-US/lm.bin"
        // The server sends 4 KiB of the 48 KiB, then waits for the test (however loaded the machine,
        // the checks below run while the transfer is in flight; a generous idle timeout for the same
        // reason).
        fixture.server.setBehavior(.hold(afterBytes: 4096), for: path)
        let download = manager.download(fixture.model, conditions: ModelTestFixture.conditions(timeout: 30))

        // While the file is coming in, the model is not downloaded.
        #expect(await eventually { download.latestProgress?.currentFile == path && (download.latestProgress?.completedBytes ?? 0) > 0 })
        #expect(manager.isDownloading(fixture.model))
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(manager.downloadedModels().isEmpty)
        #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) { try manager.modelDirectory(for: fixture.model) }
        fixture.server.release(path)

        let result = try await outcome(of: download)
        #expect(result.success != nil)
        #expect(manager.isModelDownloaded(fixture.model))
        #expect(!manager.isDownloading(fixture.model))
    }

    @Test func aStalledServerTimesOut() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setBehavior(.stall(afterBytes: 100), for: "en-US/lm.bin")
        let start = ContinuousClock.now
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions(timeout: 0.3)))
        guard case .downloadFailed(_, _, let reason) = result.failure else {
            Issue.record("expected downloadFailed, got \(result)")
            return
        }
        #expect(reason.contains("timed out"))
        // The client gave up, not the server: a stalled connection is held for
        // `TestHTTPServer.stallLimit` (30 s). The bound is loose because the whole suite runs in
        // parallel on two cores; it was 5 s and a loaded CI machine took 5.35 s.
        #expect(ContinuousClock.now - start < .seconds(TestHTTPServer.stallLimit / 2))
        #expect(!manager.isModelDownloaded(fixture.model))
    }

    @Test func concurrentDownloadsShareOneTransfer() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()
        fixture.server.setBehavior(.slow(chunkSize: 8192, delay: .milliseconds(10)), for: "en-US/lm.bin")
        let first = manager.download(fixture.model, conditions: ModelTestFixture.conditions())
        let second = manager.download(fixture.model, conditions: ModelTestFixture.conditions())
        async let a = outcome(of: first)
        async let b = outcome(of: second)
        let (ra, rb) = try await (a, b)
        #expect(ra.success != nil)
        #expect(ra.success == rb.success)
        // Every path was requested once.
        let paths = fixture.server.requests.map(\.path)
        #expect(paths.count == Set(paths).count)
        #expect(paths.count == fixture.manifest.models[0].files.count + 1)
        #expect(recorder.names() == [.digitalInkModelDownloadDidSucceed])
    }

    @Test func cancellingTheOnlyCallerStopsTheTransfer() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()
        fixture.server.setBehavior(.hold(afterBytes: 1024), for: "en-US/lm.bin")  // in flight until cancelled
        let download = manager.download(fixture.model, conditions: ModelTestFixture.conditions(timeout: 30))
        #expect(await eventually { download.latestProgress?.currentFile == "en-US/lm.bin" })
        download.progress.cancel()  // ML Kit style
        #expect(try await outcome(of: download).failure == .cancelled)
        #expect(await eventually { !manager.isDownloading(fixture.model) })
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(await eventually { recorder.names() == [.digitalInkModelDownloadDidFail] })
    }

    @Test func notEnoughDiskSpaceIsAStorageError() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager(availableCapacity: { 1000 })
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .storageFailed(_, let reason) = result.failure else {
            Issue.record("expected storageFailed, got \(result)")
            return
        }
        #expect(reason.contains("disk is full"))
        #expect(fixture.server.requests.map(\.path) == ["manifest.json"])
    }

    @Test func aMalformedManifestIsTyped() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setFile("manifest.json", Data(#"{"formatVersion": 1, "models": [{"identifier": 3}]}"#.utf8))
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .manifestMalformed(let source, _) = result.failure else {
            Issue.record("expected manifestMalformed, got \(result)")
            return
        }
        #expect(source.hasSuffix("/manifest.json"))
    }

    @Test func connectionRefusedIsANetworkFailure() async throws {
        let fixture = try ModelTestFixture()
        // Port 1 of the loopback: nothing listens there, and no test server is ever given it (they take
        // ephemeral ports). Stopping this fixture's server instead let another test's server take its port
        // while the download ran (CI, 2026-11-29: "no model en-US in the repository").
        let manager = fixture.manager(repository: .remote(URL(string: "http://127.0.0.1:1/")!))
        let result = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .downloadFailed(let url, nil, _) = result.failure else {
            Issue.record("expected downloadFailed, got \(result)")
            return
        }
        #expect(url.hasPrefix("http://127.0.0.1:"))
    }

    @Test func completionHandlerVariants() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let events = LockedState([ModelDownloadProgress]())
        let result: Result<InstalledModel, DigitalInkError> = await withCheckedContinuation { continuation in
            manager.download(
                fixture.model, conditions: ModelTestFixture.conditions(),
                progressHandler: { event in events.withLock { $0.append(event) } },
                completion: { continuation.resume(returning: $0) })
        }
        #expect(result.success != nil)
        #expect(events.withLock { $0.last?.phase } == .installed)

        let manifest: Result<ModelManifest, DigitalInkError> = await withCheckedContinuation { continuation in
            manager.fetchManifest(conditions: ModelTestFixture.conditions()) { continuation.resume(returning: $0) }
        }
        #expect(manifest.success == fixture.manifest)

        let deleted: DigitalInkError? = await withCheckedContinuation { continuation in
            manager.deleteDownloadedModel(fixture.model) { continuation.resume(returning: $0) }
        }
        #expect(deleted == nil)
        #expect(!manager.isModelDownloaded(fixture.model))
    }

    @Test func findsModelIdentifiersInARemoteRepository() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        #expect(try await manager.modelIdentifier(forLanguageTag: "en-GB")?.languageTag == "en-US")
        #expect(try await manager.modelIdentifier(forLanguageTag: "fr")?.languageTag == "fr-FR")
        #expect(try await manager.modelIdentifier(forLanguageTag: "zxx-Zsym-x-shapes") == .shapes)
        #expect(try await manager.modelIdentifier(forLanguageTag: "ja") == nil)
    }
}
