import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `inkrec` carries its models as resources (the `DigitalInkModels` product), not as a path into the
/// source tree it was built from. (scripts/check-relocation also deletes the source tree.)
@Suite("inkrec's built-in models", .serialized)
struct CLIBundleTests {
    @Test("a copy of inkrec with its resource bundles installs from the bundle beside it and reads a sample")
    func copiedExecutable() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let built = CLI.executable.deletingLastPathComponent()
        try FileManager.default.copyItem(at: CLI.executable, to: dir.appendingPathComponent("inkrec"))
        let bundle = "DigitalInk_DigitalInkModels.resources"
        try FileManager.default.copyItem(at: built.appendingPathComponent(bundle), to: dir.appendingPathComponent(bundle))
        let p = Process()
        p.executableURL = dir.appendingPathComponent("inkrec")
        p.arguments = ["recognize", CLI.packageRoot.appendingPathComponent("Samples/hello.json").path,
                       "--storage", dir.appendingPathComponent("store").path]
        var environment = ProcessInfo.processInfo.environment
        environment["DIGITALINK_MODELS"] = nil
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let run = await CLI.finish(p, out: out, err: err)
        let (text, stderr) = (run.stdout, run.stderr)
        #expect(run.status == 0, "\(stderr)")
        #expect(text.contains("hello.json: hello"), "\(text)")
        #expect(stderr.contains(dir.appendingPathComponent(bundle).path), "installed from elsewhere: \(stderr)")
    }

    @Test("DIGITALINK_MODELS points inkrec at another repository directory")
    func override() async throws {
        let storage = try CLI.temporaryDirectory()
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["models", "list", "--storage", storage.path]
        var environment = ProcessInfo.processInfo.environment
        environment["DIGITALINK_MODELS"] = Fixtures.modelsDirectory.path
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = await CLI.finish(p, out: out, err: err).stdout
        #expect(text.hasPrefix("repository: repository at \(Fixtures.modelsDirectory.path)"), "\(text)")
    }

    @Test("models export writes a repository with only the chosen models, from which a manager installs and reads")
    func export() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("Models")
        let r = try await CLI.run(["models", "export", "--models", "en", "--output", out.path, "--storage", dir.appendingPathComponent("store").path])
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = try ModelManifest(contentsOf: out.appendingPathComponent("manifest.json"))
        #expect(manifest.models.map(\.identifier.languageTag) == ["en-US"])
        let manager = ModelManager(repository: .directory(out), storageDirectory: dir.appendingPathComponent("app-store"))
        let model = DigitalInkRecognitionModel(modelIdentifier: try #require(try await manager.modelIdentifier(forLanguageTag: "en")))
        _ = try await manager.download(model).wait()
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
        #expect(try await recognizer.recognize(try sample("hello.json").ink).best?.text == "hello")
        // A second export into the same (now not empty) directory is refused.
        let again = try await CLI.run(["models", "export", "--models", "en", "--output", out.path, "--storage", dir.appendingPathComponent("store").path])
        #expect(again.status != 0 && again.stderr.contains("not empty"), "\(again.stderr)")
    }
}
