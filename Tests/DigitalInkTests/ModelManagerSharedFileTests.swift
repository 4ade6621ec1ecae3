import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Models that share one network file (issue 17): downloaded and stored once, kept while a model
/// lists it, checked before reuse, repaired when damaged; references never leave the models root.
/// (The limit only catches a hang: each test waits for the compute threads that every other suite of
/// the parallel run also waits for, so its time is the whole run's; on two cores one test reported
/// 69–82 s, and with the line-pipeline suites added three minutes failed a clean-clone run, 228 s.)
@Suite("ModelManager shared files", .timeLimit(.minutes(10)))
struct ModelManagerSharedFileTests {
    typealias Shared = SharedNetworkFixture

    @Test("a second model sharing the network downloads only its own files, and both recognize")
    func secondModelFetchesOnlyItsOwnFiles() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manager = fixture.manager()
        try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        let before = fixture.server.requests.count
        let installed = try await manager.download(Shared.french, conditions: ModelTestFixture.conditions()).wait()

        let fetched = fixture.server.requests.dropFirst(before).map(\.path).filter { $0 != ModelManifest.fileName }
        #expect(fetched.sorted() == ["fr-FR/MODEL_CARD.md", "fr-FR/config.json"])
        #expect(fixture.server.requests(for: Shared.sharedPath).count == 1)
        #expect(fixture.blobs().count == 5)  // the network once, two own files per model
        #expect(installed.files.contains { $0.path == Shared.sharedPath })
        // The installed version keeps the repository's layout: the network beside the model folder.
        let shared = installed.modelDirectory.deletingLastPathComponent().appendingPathComponent(Shared.sharedPath)
        #expect(try Data(contentsOf: shared) == Shared.weights)

        #expect(try await !Shared.recognize(Shared.german, manager).candidates.isEmpty)
        #expect(try await !Shared.recognize(Shared.french, manager).candidates.isEmpty)
    }

    @Test("deleting one model keeps the network the other uses; deleting both removes it")
    func deleteKeepsTheSharedNetworkWhileListed() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manager = fixture.manager()
        try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        try await manager.download(Shared.french, conditions: ModelTestFixture.conditions()).wait()
        let networkBlob = FileDigest(of: Shared.weights).sha256

        try await manager.deleteDownloadedModel(Shared.german)
        #expect(manager.downloadedModels() == [Shared.french])
        #expect(fixture.blobs().contains(networkBlob))
        #expect(fixture.blobs().count == 3)
        #expect(try await !Shared.recognize(Shared.french, manager).candidates.isEmpty)

        try await manager.deleteDownloadedModel(Shared.french)
        #expect(fixture.blobs().isEmpty)
        let models = try FileManager.default.contentsOfDirectory(atPath: fixture.storageDirectory.appendingPathComponent("models").path)
        #expect(models.isEmpty)
        #expect(fixture.incompleteFiles().isEmpty)
    }

    @Test("a damaged shared file is found by its checksum and downloaded again; the model sharing it is repaired")
    func damagedSharedFileIsDownloadedAgain() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manager = fixture.manager()
        let german = try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        let germanNetwork = german.modelDirectory.deletingLastPathComponent().appendingPathComponent(Shared.sharedPath)
        // Same size, other bytes: presence and size alone would pass it.
        try Shared.damage(fixture.storageDirectory.appendingPathComponent("blobs/\(FileDigest(of: Shared.weights).sha256)"))
        #expect(try Data(contentsOf: germanNetwork) != Shared.weights)  // a hard link: de's copy too

        let download = manager.download(Shared.french, conditions: ModelTestFixture.conditions())
        var damaged: [String] = []
        for try await event in download { damaged = event.damagedFiles }
        let french = try await download.wait()
        #expect(damaged == [Shared.sharedPath])
        #expect(fixture.server.requests(for: Shared.sharedPath).count == 2)
        let frenchNetwork = french.modelDirectory.deletingLastPathComponent().appendingPathComponent(Shared.sharedPath)
        #expect(try Data(contentsOf: frenchNetwork) == Shared.weights)
        #expect(try Data(contentsOf: germanNetwork) == Shared.weights)
        #expect(fixture.incompleteFiles().isEmpty)
        #expect(try await !Shared.recognize(Shared.french, manager).candidates.isEmpty)
        #expect(try await !Shared.recognize(Shared.german, manager).candidates.isEmpty)
    }

    @Test("a damaged shared file with the repository unreachable is a typed error, and nothing installed is lost")
    func damagedSharedFileOffline() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manager = fixture.manager()
        try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        let blob = fixture.storageDirectory.appendingPathComponent("blobs/\(FileDigest(of: Shared.weights).sha256)")
        try Shared.damage(blob)
        // The manifest is reachable, the network is not.
        fixture.server.setBehavior(.status(503), for: Shared.sharedPath)
        let result = try await outcome(of: manager.download(Shared.french, conditions: ModelTestFixture.conditions()))
        guard case .downloadFailed(let url, 503, _) = result.failure else {
            Issue.record("expected downloadFailed 503, got \(result)")
            return
        }
        #expect(url.hasSuffix(Shared.sharedPath))
        #expect(!manager.isModelDownloaded(Shared.french))
        #expect(manager.downloadedModels() == [Shared.german])
        #expect(FileManager.default.fileExists(atPath: blob.path))
        #expect(try manager.modelDirectory(for: Shared.german).lastPathComponent == "de-DE")
    }

    @Test("loading a model whose shared file is cut short is a typed error; downloading again repairs both models")
    func truncatedSharedFileFailsToLoadWithATypedError() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manager = fixture.manager()
        try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        let french = try await manager.download(Shared.french, conditions: ModelTestFixture.conditions()).wait()
        let network = french.modelDirectory.deletingLastPathComponent().appendingPathComponent(Shared.sharedPath)
        try Shared.damage(network, truncateTo: 100)

        #expect {
            _ = try manager.modelDirectory(for: Shared.german)
        } throws: { error in
            guard case .modelCorrupt = error as? DigitalInkError else { return false }
            return true
        }
        do {
            _ = try await Shared.recognize(Shared.french, manager)
            Issue.record("recognized with a damaged network")
        } catch {
            guard case .modelCorrupt? = error as? DigitalInkError else { Issue.record("expected modelCorrupt, got \(error)"); return }
        }

        try await manager.download(Shared.german, conditions: ModelTestFixture.conditions()).wait()
        #expect(fixture.server.requests(for: Shared.sharedPath).count == 2)
        #expect(try await !Shared.recognize(Shared.german, manager).candidates.isEmpty)
        #expect(try await !Shared.recognize(Shared.french, manager).candidates.isEmpty)
    }

    @Test("a model directory of the repository loads on its own, with the shared network beside it")
    func repositoryModelDirectoryLoadsOnItsOwn() async throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let directory = fixture.repositoryDirectory.appendingPathComponent("fr-FR")
        let model = try LoadedModel(directory: directory)
        #expect(model.configuration.network.weights == "../latn-tiny/weights.safetensors")
        let result = try await DigitalInkRecognizer(options: .init(modelDirectory: directory)).recognize(Shared.ink)
        #expect(!result.candidates.isEmpty)
    }

    @Test("the manifest names the shared file, its users and each model's own files")
    func manifestSharedFiles() throws {
        let fixture = try ModelTestFixture(models: Shared.specs())
        let manifest = fixture.manifest
        let shared = try #require(manifest.sharedFiles.first)
        #expect(manifest.sharedFiles.count == 1)
        #expect(shared.file.path == Shared.sharedPath)
        #expect(shared.file.size == Int64(Shared.weights.count))
        #expect(shared.models.map(\.languageTag) == ["de-DE", "fr-FR"])
        let german = try #require(manifest.models.first)
        #expect(manifest.ownFiles(of: german).map(\.path).sorted() == ["de-DE/MODEL_CARD.md", "de-DE/config.json"])
        #expect(manifest.sharedFiles(of: german).map(\.path) == [Shared.sharedPath])
        // The same manifest read back: still format version 1.
        let decoded = try ModelManifest(data: manifest.encoded())
        #expect(decoded == manifest)
        #expect(decoded.formatVersion == 1)
    }
}

/// References from config.json and the manifest never leave the models root.
@Suite("Shared-file paths stay inside the models root")
struct ModelFileReferenceTests {
    typealias Shared = SharedNetworkFixture

    @Test(arguments: [
        ("lm.bin", true), ("data/lm.bin", true), ("../latn/weights.safetensors", true),
        ("../latn/v1/weights.safetensors", true), ("../weights.safetensors", false),
        ("../../latn/weights.safetensors", false), ("../latn/../../etc/passwd", false),
        ("/etc/passwd", false), ("", false), ("./lm.bin", false), ("a//b", false), ("..\\latn\\w", false),
        ("data/../lm.bin", false), ("..", false),
    ])
    func referenceForms(_ path: String, _ valid: Bool) {
        #expect((ModelFileReference.form(of: path) != nil) == valid, "\(path)")
    }

    @Test("a config path climbing above the models root is a typed error naming the field")
    func configPathsEscapingTheRootAreRejected() throws {
        for weights in ["../../latn-tiny/weights.safetensors", "../weights.safetensors", "/etc/passwd", "../latn-tiny/../../x"] {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("shared-escape-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let directory = root.appendingPathComponent("de-DE")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Shared.config(identifier: "de-DE", weights: weights).write(to: directory.appendingPathComponent("config.json"))
            #expect {
                _ = try LoadedModel(directory: directory)
            } throws: { error in
                guard case .modelCorrupt(_, let reason) = error as? DigitalInkError else { return false }
                return reason.contains("network.weights")
            }
        }
    }

    @Test("a shared folder that is a symbolic link out of the models root is rejected")
    func sharedFolderLinkingOutIsRejected() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shared-link-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let models = root.appendingPathComponent("Models")
        let outside = root.appendingPathComponent("elsewhere")
        let directory = models.appendingPathComponent("de-DE")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Shared.weights.write(to: outside.appendingPathComponent("weights.safetensors"))
        try FileManager.default.createSymbolicLink(at: models.appendingPathComponent("latn-tiny"), withDestinationURL: outside)
        try Shared.config(identifier: "de-DE").write(to: directory.appendingPathComponent("config.json"))
        #expect(throws: DigitalInkError.modelCorrupt(
            file: "../latn-tiny/weights.safetensors", reason: "the file lies outside the shared folder of the models root")) {
            _ = try LoadedModel(directory: directory)
        }
        // The same folder for real loads.
        try FileManager.default.removeItem(at: models.appendingPathComponent("latn-tiny"))
        try FileManager.default.moveItem(at: outside, to: models.appendingPathComponent("latn-tiny"))
        _ = try LoadedModel(directory: directory)
    }

    @Test("a manifest path leaving the repository is a typed error")
    func manifestPathsEscapingTheRootAreRejected() {
        let digest = String(repeating: "a", count: 64)
        for path in ["../latn/weights.safetensors", "/latn/weights.safetensors", "de-DE/../../weights.safetensors"] {
            let manifest = ModelManifest(models: [ModelManifest.Model(
                identifier: try! DigitalInkRecognitionModelIdentifier(languageTag: "de-DE"), version: "1", license: "CC0-1.0",
                files: [ModelManifest.File(path: "de-DE/config.json", size: 1, sha256: digest),
                        ModelManifest.File(path: path, size: 1, sha256: digest)])])
            #expect {
                try manifest.validate()
            } throws: { error in
                guard case .manifestMalformed(_, let reason) = error as? DigitalInkError else { return false }
                return reason.contains(path)
            }
        }
    }
}
