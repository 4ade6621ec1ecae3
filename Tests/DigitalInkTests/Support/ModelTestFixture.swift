import Foundation
@_spi(Engine) @testable import DigitalInk

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A model for a test repository: files with fake contents.
struct TestModelSpec {
    var identifier: String
    var aliases: [String] = []
    var version = "1.0.0"
    var network: String? = "latn-v1"
    /// Manifest path → contents.
    var files: [String: Data]
}

/// A temporary test repository, storage directory, loopback server and manager, removed when the
/// fixture goes away.
final class ModelTestFixture: @unchecked Sendable {
    let root: URL
    let repositoryDirectory: URL
    let storageDirectory: URL
    let server: TestHTTPServer
    let notificationCenter = NotificationCenter()
    private(set) var manifest = ModelManifest(models: [])

    /// Deterministic pseudo-random bytes.
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var x = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            bytes[i] = UInt8(truncatingIfNeeded: x)
        }
        return Data(bytes)
    }

    /// Files shared by the Latin-script models.
    static let sharedWeightsPath = "shared/latn-v1/weights.safetensors"
    static let sharedWeights = bytes(96 * 1024, seed: 1)

    static func config(_ lm: String) -> Data {
        Data(#"{"network": "../shared/latn-v1/weights.safetensors", "languageModel": "\#(lm)"}"#.utf8)
    }

    /// en-US (alias en) and fr-FR sharing one network, plus the shapes model.
    static func standardModels(englishLM: Data = bytes(48 * 1024, seed: 2)) -> [TestModelSpec] {
        [
            TestModelSpec(
                identifier: "en-US", aliases: ["en"],
                files: [
                    "en-US/config.json": config("lm.bin"),
                    sharedWeightsPath: sharedWeights,
                    "en-US/lm.bin": englishLM,
                    "en-US/MODEL_CARD.md": Data("# English\n".utf8),
                ]),
            TestModelSpec(
                identifier: "fr-FR", aliases: ["fr"],
                files: [
                    "fr-FR/config.json": config("lm.bin"),
                    sharedWeightsPath: sharedWeights,
                    "fr-FR/lm.bin": bytes(40 * 1024, seed: 3),
                ]),
            TestModelSpec(
                identifier: "zxx-Zsym-x-shapes", network: nil,
                files: [
                    "shapes/config.json": Data(#"{"network": "weights.bin"}"#.utf8),
                    "shapes/weights.bin": bytes(20 * 1024, seed: 4),
                ]),
        ]
    }

    init(models: [TestModelSpec] = ModelTestFixture.standardModels()) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("digitalink-model-tests-\(UUID().uuidString)", isDirectory: true)
        repositoryDirectory = root.appendingPathComponent("repository", isDirectory: true)
        storageDirectory = root.appendingPathComponent("storage", isDirectory: true)
        try FileManager.default.createDirectory(at: repositoryDirectory, withIntermediateDirectories: true)
        server = try TestHTTPServer()
        try publish(models)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    var model: DigitalInkRecognitionModel { Self.model("en-US") }

    static func model(_ tag: String) -> DigitalInkRecognitionModel {
        DigitalInkRecognitionModel(modelIdentifier: try! DigitalInkRecognitionModelIdentifier(languageTag: tag))
    }

    /// Writes the models' files to the repository directory, computes the manifest with
    /// ``ModelManifest/make(for:models:)`` and serves everything.
    func publish(_ models: [TestModelSpec]) throws {
        var entries: [ModelManifest.Model] = []
        for spec in models {
            for (path, data) in spec.files {
                let url = repositoryDirectory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
                server.setFile(path, data)
            }
            entries.append(ModelManifest.Model(
                identifier: try DigitalInkRecognitionModelIdentifier(languageTag: spec.identifier),
                aliases: try spec.aliases.map { try DigitalInkRecognitionModelIdentifier(languageTag: $0) },
                version: spec.version, kind: spec.identifier.hasPrefix("zxx") ? .shapes : .text,
                network: spec.network, license: "CC-BY-4.0", description: "test model \(spec.identifier)",
                files: spec.files.keys.sorted().map { ModelManifest.File(path: $0) }))
        }
        manifest = try ModelManifest.make(for: repositoryDirectory, models: entries)
        try manifest.write(to: repositoryDirectory.appendingPathComponent(ModelManifest.fileName))
        server.setFile(ModelManifest.fileName, manifest.encoded())
    }

    /// A manager for the loopback server (or `repository`), storing in the fixture.
    func manager(
        repository: ModelRepository? = nil, availableCapacity: (@Sendable () -> Int64?)? = nil
    ) -> ModelManager {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        let repository = repository ?? .remote(server.baseURL)
        if let availableCapacity {
            return ModelManager(
                repository: repository, storageDirectory: storageDirectory, session: session,
                notificationCenter: notificationCenter, availableCapacity: availableCapacity)
        }
        return ModelManager(
            repository: repository, storageDirectory: storageDirectory, session: session,
            notificationCenter: notificationCenter)
    }

    /// Conditions with short, bounded timeouts.
    static func conditions(retries: Int = 0, timeout: TimeInterval = 3) -> ModelDownloadConditions {
        ModelDownloadConditions(timeoutInterval: timeout, maximumRetryCount: retries)
    }

    /// Files under the storage directory whose names end in `.incomplete`.
    func incompleteFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: storageDirectory.path)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".incomplete") { result.append(path) }
        }
        return result
    }

    /// Names of the verified blobs in the store.
    func blobs() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(
            atPath: storageDirectory.appendingPathComponent("blobs").path)) ?? []
        return Set(names.filter { !$0.hasSuffix(".incomplete") })
    }
}

/// Collects the manager's notifications.
final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [Notification] = []
    private var tokens: [any NSObjectProtocol] = []
    private let center: NotificationCenter

    init(_ center: NotificationCenter) {
        self.center = center
        for name in [Notification.Name.digitalInkModelDownloadDidSucceed, .digitalInkModelDownloadDidFail] {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                guard let self else { return }
                self.lock.lock()
                self.received.append(note)
                self.lock.unlock()
            })
        }
    }

    deinit {
        for token in tokens { center.removeObserver(token) }
    }

    var notifications: [Notification] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    func names() -> [Notification.Name] { notifications.map(\.name) }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "the operation did not finish in time" }
}

/// The outcome of a download, failing the test (by throwing) when it takes longer than `seconds`.
func outcome(of download: ModelDownload, within seconds: Double = 10) async throws -> Result<InstalledModel, DigitalInkError> {
    try await withThrowingTaskGroup(of: Result<InstalledModel, DigitalInkError>?.self) { group in
        group.addTask {
            do throws(DigitalInkError) {
                return .success(try await download.wait())
            } catch {
                return .failure(error)
            }
        }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
            download.cancel()
            throw TimedOut()
        }
        return result
    }
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held. The
/// default is long because the whole suite runs in parallel: on a loaded machine a poll may wait
/// seconds for a thread. Only a failing test waits that long.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
