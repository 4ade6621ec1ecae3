import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Delete, update, shared files and local repositories.
/// (The time limit only catches a hang: under the whole test run's parallel load on two cores a
/// test waits for the compute threads every other suite uses; a clean-clone run took 50 s of a
/// one-minute limit here.)
@Suite("ModelManager lifecycle", .timeLimit(.minutes(10)))
struct ModelManagerLifecycleTests {
    @Test func deletingAModelInUseLeavesLoadedDataIntact() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let directory = try manager.modelDirectory(for: fixture.model)

        // A "recognizer" has read the config into memory and holds the language model open.
        let config = try Data(contentsOf: directory.appendingPathComponent("config.json"))
        let handle = try FileHandle(forReadingFrom: directory.appendingPathComponent("lm.bin"))
        defer { try? handle.close() }

        try await manager.deleteDownloadedModel(fixture.model)

        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(manager.downloadedModels().isEmpty)
        #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) { try manager.modelDirectory(for: fixture.model) }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(fixture.blobs().isEmpty)
        // What was loaded or opened before the delete is still readable.
        #expect(config == ModelTestFixture.config("lm.bin"))
        let lm = try handle.readToEnd() ?? Data()
        #expect(lm == ModelTestFixture.bytes(48 * 1024, seed: 2))

        // Deleting again does nothing (as in ML Kit); downloading again works.
        try await manager.deleteDownloadedModel(fixture.model)
        #expect(!manager.isModelDownloaded(fixture.model))
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        #expect(manager.isModelDownloaded(fixture.model))
    }

    @Test func deletingCancelsARunningDownload() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setBehavior(.hold(afterBytes: 1024), for: "en-US/lm.bin")  // in flight until deleted
        let download = manager.download(fixture.model, conditions: ModelTestFixture.conditions(timeout: 30))
        #expect(await eventually { download.latestProgress?.currentFile == "en-US/lm.bin" })
        try await manager.deleteDownloadedModel(fixture.model)  // not installed yet: no error
        #expect(try await outcome(of: download).failure == .cancelled)
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(fixture.incompleteFiles().isEmpty)
    }

    @Test func sharedFilesAreTransferredOnceAndKeptWhileListed() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        let english = fixture.model
        let french = ModelTestFixture.model("fr-FR")
        try await manager.download(english, conditions: ModelTestFixture.conditions()).wait()
        try await manager.download(french, conditions: ModelTestFixture.conditions()).wait()
        #expect(fixture.server.requests(for: ModelTestFixture.sharedWeightsPath).count == 1)
        #expect(manager.downloadedModels() == [english, french])

        let frenchDirectory = try manager.modelDirectory(for: french)
        let shared = frenchDirectory.deletingLastPathComponent().appendingPathComponent(ModelTestFixture.sharedWeightsPath)
        try await manager.deleteDownloadedModel(english)

        #expect(manager.isModelDownloaded(french))
        #expect(try manager.modelDirectory(for: french) == frenchDirectory)
        #expect(try Data(contentsOf: shared) == ModelTestFixture.sharedWeights)
        #expect(fixture.blobs().contains(FileDigest(of: ModelTestFixture.sharedWeights).sha256))

        try await manager.deleteDownloadedModel(french)
        #expect(fixture.blobs().isEmpty)
    }

    @Test func concurrentDownloadsOfModelsSharingAFile() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        fixture.server.setBehavior(.slow(chunkSize: 16384, delay: .milliseconds(10)), for: ModelTestFixture.sharedWeightsPath)
        async let english = outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        async let french = outcome(of: manager.download(ModelTestFixture.model("fr-FR"), conditions: ModelTestFixture.conditions()))
        let (e, f) = try await (english, french)
        #expect(e.success != nil)
        #expect(f.success != nil)
        #expect(fixture.server.requests(for: ModelTestFixture.sharedWeightsPath).count == 1)
    }

    @Test func anUpdateReplacesTheOldVersionOnlyAfterVerification() async throws {
        let fixture = try ModelTestFixture()
        let recorder = NotificationRecorder(fixture.notificationCenter)
        let manager = fixture.manager()
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let oldDirectory = try manager.modelDirectory(for: fixture.model)
        let oldLM = try Data(contentsOf: oldDirectory.appendingPathComponent("lm.bin"))

        // Version 2 changes the language model; the server fails to deliver it at first.
        var models = ModelTestFixture.standardModels(englishLM: ModelTestFixture.bytes(50 * 1024, seed: 99))
        models[0].version = "2.0.0"
        try fixture.publish(models)
        fixture.server.setBehavior(.status(500), for: "en-US/lm.bin")
        let failed = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        #expect(failed.failure != nil)
        // The failed update left version 1 installed and untouched.
        #expect(manager.isModelDownloaded(fixture.model))
        #expect(manager.installedModel(fixture.model)?.version == "1.0.0")
        #expect(try manager.modelDirectory(for: fixture.model) == oldDirectory)
        #expect(try Data(contentsOf: oldDirectory.appendingPathComponent("lm.bin")) == oldLM)

        // Then the server delivers a tampered version-2 language model (same size, other bytes):
        // rejected by its checksum, and version 1 is still the installed one.
        fixture.server.setBehavior(.normal, for: "en-US/lm.bin")
        var tampered = ModelTestFixture.bytes(50 * 1024, seed: 99)
        tampered[10] ^= 0xFF
        fixture.server.setFile("en-US/lm.bin", tampered)
        let rejected = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .checksumMismatch = rejected.failure else { Issue.record("expected checksumMismatch, got \(rejected)"); return }
        #expect(manager.installedModel(fixture.model)?.version == "1.0.0")
        #expect(try manager.modelDirectory(for: fixture.model) == oldDirectory)
        #expect(try Data(contentsOf: oldDirectory.appendingPathComponent("lm.bin")) == oldLM)

        fixture.server.setFile("en-US/lm.bin", ModelTestFixture.bytes(50 * 1024, seed: 99))
        let updated = try #require(try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions())).success)
        #expect(updated.version == "2.0.0")
        let newDirectory = try manager.modelDirectory(for: fixture.model)
        #expect(newDirectory != oldDirectory)
        #expect(!FileManager.default.fileExists(atPath: oldDirectory.path))
        #expect(try Data(contentsOf: newDirectory.appendingPathComponent("lm.bin")) == ModelTestFixture.bytes(50 * 1024, seed: 99))
        // Unchanged files were not transferred again, and the old language model's blob is gone.
        #expect(fixture.server.requests(for: ModelTestFixture.sharedWeightsPath).count == 1)
        #expect(fixture.server.requests(for: "en-US/config.json").count == 1)
        #expect(!fixture.blobs().contains(FileDigest(of: oldLM).sha256))
        #expect(manager.installedModels().map(\.version) == ["2.0.0"])
        #expect(recorder.names() == [.digitalInkModelDownloadDidSucceed, .digitalInkModelDownloadDidFail,
                                     .digitalInkModelDownloadDidFail, .digitalInkModelDownloadDidSucceed])
    }

    @Test func aModelWithoutItsRecordIsNotDownloaded() async throws {
        let fixture = try ModelTestFixture()
        let manager = fixture.manager()
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        // Files without a record (as after a crash before the record was written) do not count.
        try FileManager.default.removeItem(at: fixture.storageDirectory.appendingPathComponent("records/en-US.json"))
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) { try manager.modelDirectory(for: fixture.model) }
        // A record whose files have gone is reported as corrupt, not silently used.
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let directory = try manager.modelDirectory(for: fixture.model)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("lm.bin"))
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect {
            _ = try manager.modelDirectory(for: fixture.model)
        } throws: { error in
            guard case .modelCorrupt = error as? DigitalInkError else { return false }
            return true
        }
        // Downloading again repairs it.
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        #expect(manager.isModelDownloaded(fixture.model))
    }

    @Test func installsFromALocalDirectoryWithoutAServer() async throws {
        let fixture = try ModelTestFixture()
        fixture.server.stop()
        let manager = fixture.manager(repository: .directory(fixture.repositoryDirectory))
        let shapes = DigitalInkRecognitionModel(modelIdentifier: .shapes)
        let download = manager.download(shapes, conditions: ModelTestFixture.conditions())
        var phases: [ModelDownloadProgress.Phase] = []
        for try await event in download { phases.append(event.phase) }
        #expect(phases.last == .installed)
        let installed = try #require(try await outcome(of: download).success)
        #expect(installed.kind == .shapes)
        #expect(FileManager.default.fileExists(atPath: try manager.modelDirectory(for: shapes).appendingPathComponent("weights.bin").path))
        #expect(try await manager.modelIdentifier(forLanguageTag: "en-AU")?.languageTag == "en-US")

        // A file missing from the directory is a typed failure, and nothing is installed.
        try FileManager.default.removeItem(at: fixture.repositoryDirectory.appendingPathComponent("fr-FR/lm.bin"))
        let french = try await outcome(of: manager.download(ModelTestFixture.model("fr-FR"), conditions: ModelTestFixture.conditions()))
        guard case .downloadFailed(let path, nil, _) = french.failure else {
            Issue.record("expected downloadFailed, got \(french)")
            return
        }
        #expect(path.hasSuffix("fr-FR/lm.bin"))
        #expect(manager.downloadedModels() == [shapes])
    }

    @Test("a bundled or directory repository is read in place: checked once, nothing copied, never written")
    func localRepositoryIsReadInPlace() async throws {
        let fixture = try ModelTestFixture()
        fixture.server.stop()
        let repository = fixture.repositoryDirectory.standardizedFileURL
        let manager = fixture.manager(repository: .directory(repository))
        #expect(ModelRepository.directory(repository).readsInPlace && ModelRepository.embedded.readsInPlace)
        #expect(!ModelRepository.remote(repository).readsInPlace)
        let before = try Self.snapshot(repository)

        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let directory = try manager.modelDirectory(for: fixture.model)
        #expect(directory.standardizedFileURL.path.hasPrefix(repository.path + "/"), "\(directory.path)")
        #expect(fixture.blobs().isEmpty)  // no copy in the store
        #expect(manager.installedModel(fixture.model)?.modelDirectory.standardizedFileURL == directory.standardizedFileURL)
        // (RecognizerTests recognize with models read in place from the shipped repository.)

        // Downloading again, and deleting, leave the repository as it was.
        try await manager.download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        try await manager.deleteDownloadedModel(fixture.model)
        #expect(!manager.isModelDownloaded(fixture.model))
        #expect(try Self.snapshot(repository) == before)

        // A repository file whose bytes differ from the manifest's digest is refused, nothing installed.
        let lm = repository.appendingPathComponent("en-US/lm.bin")
        var bytes = try Data(contentsOf: lm)
        bytes[0] ^= 0xFF
        try bytes.write(to: lm)
        let outcome = try await outcome(of: manager.download(fixture.model, conditions: ModelTestFixture.conditions()))
        guard case .checksumMismatch(let file, _, _) = outcome.failure else {
            Issue.record("expected checksumMismatch, got \(outcome)")
            return
        }
        #expect(file == "en-US/lm.bin")
        #expect(!manager.isModelDownloaded(fixture.model))
    }

    /// Every file under `directory` with its bytes.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test func aSecondManagerSeesInstalledModels() async throws {
        let fixture = try ModelTestFixture()
        try await fixture.manager().download(fixture.model, conditions: ModelTestFixture.conditions()).wait()
        let other = fixture.manager()
        #expect(other.isModelDownloaded(fixture.model))
        #expect(other.downloadedModels() == [fixture.model])
    }
}
