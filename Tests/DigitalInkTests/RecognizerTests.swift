import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Engine) @testable import DigitalInk

/// The shipped en-US model, loaded straight from `Models/en-US`.
let shippedModelDirectory = Fixtures.modelsDirectory.appendingPathComponent("en-US")

func sample(_ name: String) throws -> InkDocument {
    try InkDocument.read(contentsOf: Fixtures.modelsDirectory.deletingLastPathComponent()
        .appendingPathComponent("Samples").appendingPathComponent(name))
}

@Suite("DigitalInkRecognizer API")
struct RecognizerTests {
    let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    @Test("an empty ink, or only empty strokes, gives no candidates")
    func emptyInk() async throws {
        #expect(try await recognizer.recognize(Ink(strokes: [])).candidates.isEmpty)
        #expect(try await recognizer.recognize(Ink(strokes: [Stroke(points: []), Stroke(points: [])])).candidates.isEmpty)
    }

    @Test("invalid ink and writing areas are typed errors")
    func invalid() async throws {
        let nan = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: .nan, y: 1)])])
        await #expect(throws: DigitalInkError.invalidInk(.nonFiniteCoordinate(stroke: 0, point: 1))) {
            try await recognizer.recognize(nan)
        }
        let inf = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: .infinity)])])
        await #expect(throws: DigitalInkError.invalidInk(.nonFiniteCoordinate(stroke: 0, point: 0))) {
            try await recognizer.recognize(inf)
        }
        let back = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: 0, t: 10), StrokePoint(x: 1, y: 1, t: 5)])])
        var strict = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        strict.timestampValidation = .strict
        await #expect(throws: DigitalInkError.invalidInk(.decreasingTimestamp(stroke: 0, point: 1))) {
            try await DigitalInkRecognizer(options: strict).recognize(back)
        }
        #expect(try await DigitalInkRecognizer(options: strict).recognize(back.repairingTimestamps()).candidates.count > 0)
        let ok = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: 5, y: 5)])])
        await #expect(throws: DigitalInkError.invalidInk(.invalidWritingArea(width: 100, height: 0))) {
            try await recognizer.recognize(ok, context: RecognitionContext(writingArea: WritingArea(width: 100, height: 0)))
        }
    }

    @Test("unload releases the model; a later recognition loads it again")
    func unload() async throws {
        let r = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        #expect(await r.isLoaded == false)
        let first = try await r.recognize(try sample("hello.json").ink)
        #expect(await r.isLoaded)
        await r.close()
        #expect(await r.isLoaded == false)
        #expect(try await r.recognize(try sample("hello.json").ink) == first)
    }

    @Test("a huge ink is refused before any work")
    func huge() async throws {
        let points = (0...Ink.maxPointCount).map { StrokePoint(x: Float($0 % 1000), y: Float($0 % 37)) }
        await #expect(throws: DigitalInkError.invalidInk(.tooManyPoints(count: Ink.maxPointCount + 1, limit: Ink.maxPointCount))) {
            try await recognizer.recognize(Ink(strokes: [Stroke(points: points)]))
        }
    }

    @Test("candidates are distinct, best first, at most maxResultCount")
    func candidates() async throws {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = 4
        let r = try await DigitalInkRecognizer(options: options).recognize(try sample("line.json").ink)
        #expect(r.candidates.count == 4)
        #expect(Set(r.candidates.map(\.text)).count == r.candidates.count)
        #expect(zip(r.candidates, r.candidates.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test("8 concurrent tasks on one recognizer give the serial results")
    func concurrent() async throws {
        let inks = try ["hello.json", "line.json", "digits.json", "there.json", "argument.json"].map { try sample($0).ink }
        var serial: [DigitalInkRecognitionResult] = []
        for ink in inks { serial.append(try await recognizer.recognize(ink)) }
        let fresh = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        let parallel = try await withThrowingTaskGroup(of: (Int, DigitalInkRecognitionResult).self) { group in
            for task in 0..<8 {
                group.addTask { (task, try await fresh.recognize(inks[task % inks.count])) }
            }
            var out: [Int: DigitalInkRecognitionResult] = [:]
            for try await (i, r) in group { out[i] = r }
            return out
        }
        for task in 0..<8 { #expect(parallel[task] == serial[task % inks.count]) }
    }

    @Test("the completion-handler form delivers the same result")
    func completion() async throws {
        let ink = try sample("hello.json").ink
        let expected = try await recognizer.recognize(ink)
        let got: DigitalInkRecognitionResult = try await withCheckedThrowingContinuation { c in
            recognizer.recognize(ink) { c.resume(with: $0) }
        }
        #expect(got == expected)
        let loaded: Void? = try await withCheckedThrowingContinuation { c in
            recognizer.load { c.resume(with: $0.map { Optional.some($0) }) }
        }
        #expect(loaded != nil)
        let missing = DigitalInkRecognizer(options: .init(modelDirectory: URL(fileURLWithPath: "/nonexistent/model")))
        let failure: DigitalInkError? = await withCheckedContinuation { c in
            missing.load { result in
                if case .failure(let e) = result { c.resume(returning: e) } else { c.resume(returning: nil) }
            }
        }
        #expect(failure != nil)
    }

    @Test("a model that is not downloaded is a typed error")
    func notDownloaded() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("empty-store-\(UUID().uuidString)")
        let manager = ModelManager(repository: .directory(Fixtures.modelsDirectory), storageDirectory: storage)
        let model = DigitalInkRecognitionModel(modelIdentifier: try DigitalInkRecognitionModelIdentifier(languageTag: "en-US"))
        let r = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
        await #expect(throws: DigitalInkError.modelNotDownloaded(identifier: "en-US")) {
            try await r.recognize(try sample("hello.json").ink)
        }
    }
}

@Suite("Recognizers from models the ModelManager installed")
struct ManagedModelTests {
    func expectWorks(_ manager: ModelManager) async throws {
        let id = try #require(try DigitalInkRecognitionModelIdentifier.from(languageTag: "en-GB", in: try await manager.fetchManifest()))
        let model = DigitalInkRecognitionModel(modelIdentifier: id)
        _ = try await manager.download(model).wait()
        #expect(manager.isModelDownloaded(model))
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
        let ink = try sample("hello.json").ink
        let direct = try await DigitalInkRecognizer(options: .init(modelDirectory: shippedModelDirectory)).recognize(ink)
        let first = try await recognizer.recognize(ink)
        #expect(first == direct)
        // Delete while in use: the loaded recognizer keeps working, a new one gets a typed error.
        try await manager.deleteDownloadedModel(model)
        #expect(!manager.isModelDownloaded(model))
        #expect(try await recognizer.recognize(ink) == first)
        let late = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
        await #expect(throws: DigitalInkError.self) { try await late.recognize(ink) }
    }

    @Test("from the embedded repository")
    func embedded() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        try await expectWorks(ModelManager(repository: .directory(Fixtures.modelsDirectory), storageDirectory: storage))
    }

    @Test("from an HTTP repository on 127.0.0.1 serving Models/")
    func http() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let root = Fixtures.modelsDirectory
        let manifest = try ModelManifest(contentsOf: root.appendingPathComponent(ModelManifest.fileName))
        server.setFile(ModelManifest.fileName, try Data(contentsOf: root.appendingPathComponent(ModelManifest.fileName)))
        for m in manifest.models { for f in m.files { server.setFile(f.path, try Data(contentsOf: root.appendingPathComponent(f.path))) } }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        try await expectWorks(ModelManager(repository: .remote(server.baseURL), storageDirectory: storage,
                                           session: URLSession(configuration: configuration)))
        // The manifest twice (the test's look-up and the download's), every model file once.
        #expect(server.requests(for: ModelManifest.fileName).count == 2)
        #expect(server.requests.count == 2 + manifest.models[0].files.count)
    }
}

@Suite("Hints: an allowed character set")
struct CharsetHintTests {
    static func recognizer(_ allowed: String?) -> DigitalInkRecognizer {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.allowedCharacters = allowed.map(Set.init)
        options.maxResultCount = 20
        return DigitalInkRecognizer(options: options)
    }

    @Test("a digits-only field never returns anything but digits, whatever the ink", arguments: ["hello.json", "line.json", "digits.json", "argument.json"])
    func digitsOnly(_ name: String) async throws {
        let result = try await Self.recognizer("0123456789").recognize(try sample(name).ink, context: RecognitionContext(preContext: "tel"))
        for candidate in result.candidates {
            let digitsOnly = candidate.text.allSatisfy { "0123456789".contains($0) }
            #expect(digitsOnly, "\(name): \(candidate.text)")
        }
    }

    @Test("the digits sample still reads with the digits set; a word reads within its letters")
    func stillReads() async throws {
        #expect(try await Self.recognizer("0123456789").recognize(try sample("digits.json").ink).best?.text == "93652")
        let letters = try await Self.recognizer("ehlo").recognize(try sample("hello.json").ink)
        #expect(letters.best?.text == "hello")
        #expect(letters.candidates.allSatisfy { $0.text.allSatisfy { "ehlo".contains($0) } })
        await #expect(throws: DigitalInkError.invalidOption(name: "allowedCharacters", reason: "the set is empty: nothing could be recognized")) {
            try await Self.recognizer("").recognize(try sample("hello.json").ink)
        }
    }
}
