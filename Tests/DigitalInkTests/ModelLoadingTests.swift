import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Builds a text-model directory from the tiny fixture network, to be damaged by each test.
func makeTinyModelDirectory(config edit: (inout [String: Any]) -> Void = { _ in }) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tiny-model-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Fixtures.url("tiny-network/weights.safetensors"), to: dir.appendingPathComponent("weights.safetensors"))
    let golden = try Fixtures.json("tiny-network/golden.json")
    var config: [String: Any] = [
        "formatVersion": 1, "identifier": "xx-tiny", "kind": "text",
        "features": ["scheme": "resampled-v1", "stepsPerLineHeight": 8],
        "network": golden["network"]!, "labels": ["a", "b", "c", "d", " ", "e"], "blankIndex": 0,
        "decoder": ["lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4],
    ]
    edit(&config)
    try JSONSerialization.data(withJSONObject: config).write(to: dir.appendingPathComponent("config.json"))
    return dir
}

@Suite("Model loading rejects damaged files with typed errors")
struct ModelLoadingTests {
    @Test("a valid tiny model loads and recognizes")
    func loads() async throws {
        let dir = try makeTinyModelDirectory()
        let r = DigitalInkRecognizer(options: .init(modelDirectory: dir))
        let ink = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: 10, y: 10), StrokePoint(x: 20, y: 0)])])
        let result = try await r.recognize(ink)
        #expect(!result.candidates.isEmpty)
    }

    @Test("truncated weights")
    func truncated() throws {
        let dir = try makeTinyModelDirectory()
        let url = dir.appendingPathComponent("weights.safetensors")
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        #expect(throws: DigitalInkError.self) { try LoadedModel(directory: dir) }
        do { _ = try LoadedModel(directory: dir) } catch {
            guard case .modelCorrupt(let file, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(file == "weights.safetensors")
        }
    }

    @Test("a header length larger than the file")
    func headerLength() throws {
        let dir = try makeTinyModelDirectory()
        let url = dir.appendingPathComponent("weights.safetensors")
        var data = try Data(contentsOf: url)
        data.replaceSubrange(0..<8, with: [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0])
        try data.write(to: url)
        #expect(throws: DigitalInkError.self) { try LoadedModel(directory: dir) }
    }

    @Test("a shape whose byte size overflows is refused, not a crash")
    func overflowingShape() throws {
        // count = 2^61 elements of 4 bytes: the element count fits in Int, the byte size does not.
        let header = #"{"w":{"dtype":"F32","shape":[2305843009213693952],"data_offsets":[0,0]}}"#
        var data = Data()
        var length = UInt64(header.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(contentsOf: header.utf8)
        do { _ = try SafeTensorsFile(data: data, name: "w.safetensors"); Issue.record("accepted an overflowing shape") } catch {
            guard case .modelCorrupt(let file, let reason) = error else { Issue.record("wrong error \(error)"); return }
            #expect(file == "w.safetensors")
            #expect(reason.contains("w"))
        }
    }

    @Test("garbage instead of weights, and an empty file")
    func garbage() throws {
        let dir = try makeTinyModelDirectory()
        let url = dir.appendingPathComponent("weights.safetensors")
        try Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7919) }).write(to: url)
        #expect(throws: DigitalInkError.self) { try LoadedModel(directory: dir) }
        try Data().write(to: url)
        #expect(throws: DigitalInkError.self) { try LoadedModel(directory: dir) }
    }

    @Test("a configuration that disagrees with the weights names the tensor")
    func shapeMismatch() throws {
        let dir = try makeTinyModelDirectory { c in
            var n = c["network"] as! [String: Any]
            n["hidden"] = 9
            c["network"] = n
        }
        do {
            _ = try LoadedModel(directory: dir)
            Issue.record("loaded a model whose config disagrees with its weights")
        } catch {
            #expect(error == .tensorShapeMismatch(tensor: "lstms.0.weight_ih_l0", expected: [36, 4], actual: [32, 4]))
        }
    }

    @Test("a network with fewer layers than its weights: the stray tensors are named; an unknown kind is named")
    func strayTensorsAndKinds() throws {
        let dir = try makeTinyModelDirectory { c in
            var n = c["network"] as! [String: Any]
            n["layers"] = (n["layers"] as! Int) - 1
            n["reduceAfter"] = 0
            c["network"] = n
        }
        do {
            _ = try LoadedModel(directory: dir)
            Issue.record("loaded weights with tensors the configuration does not use")
        } catch {
            guard case .modelCorrupt(let file, let reason) = error else { Issue.record("\(error)"); return }
            #expect(file == "weights.safetensors")
            #expect(reason.contains("does not use") && reason.contains("lstms."), "\(reason)")
        }
        let head = try makeTinyModelDirectory { c in
            var n = c["network"] as! [String: Any]
            n["head"] = "attention"
            c["network"] = n
        }
        #expect(throws: DigitalInkError.self) { _ = try LoadedModel(directory: head) }
        let emoji = try makeTinyModelDirectory { $0["kind"] = "emoji-v9" }
        do {
            _ = try LoadedModel(directory: emoji)
            Issue.record("loaded a model of an unknown kind")
        } catch {
            guard case .modelCorrupt(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("unknown kind emoji-v9"), "\(reason)")
        }
    }

    @Test("config.json values out of range are named, before any allocation",
          arguments: [("hidden", 1 << 62), ("layers", 1000), ("numClasses", Int.max), ("reduceAfter", 9)])
    func networkRanges(_ field: String, _ value: Int) throws {
        let dir = try makeTinyModelDirectory { c in
            var n = c["network"] as! [String: Any]
            n[field] = value
            c["network"] = n
        }
        #expect(throws: DigitalInkError.self) { _ = try LoadedModel(directory: dir) }
        do { _ = try LoadedModel(directory: dir) } catch {
            guard case .modelCorrupt(_, let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("network.\(field)"), "\(reason)")
        }
    }

    @Test("decoder and feature values out of range; files outside the model directory are never opened")
    func decoderRangesAndPaths() throws {
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("decoder.beamWidth", { $0["decoder"] = ["lmWeight": 0.5, "insertionBonus": 0, "beamWidth": Int.max] }),
            ("decoder.lmWeight", { $0["decoder"] = ["lmWeight": 1e30, "insertionBonus": 0, "beamWidth": 4] }),
            ("features.stepsPerLineHeight", { $0["features"] = ["scheme": "resampled-v1", "stepsPerLineHeight": 1e300] }),
            ("network.weights", { c in var n = c["network"] as! [String: Any]; n["weights"] = "../../../../etc/passwd"; c["network"] = n }),
            ("network.weights", { c in var n = c["network"] as! [String: Any]; n["weights"] = "/etc/passwd"; c["network"] = n }),
            ("decoder.languageModel", { $0["decoder"] = ["languageModel": "../lm.bin", "lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4] }),
        ]
        for (field, edit) in cases {
            let dir = try makeTinyModelDirectory(config: edit)
            do {
                _ = try LoadedModel(directory: dir)
                Issue.record("loaded a model with a bad \(field)")
            } catch {
                guard case .modelCorrupt(_, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason.contains(field), "\(reason)")
                #expect(!reason.contains("root:"), "echoed a file outside the model: \(reason)")
            }
        }
        // A symbolic link inside the directory that leads out of it.
        let dir = try makeTinyModelDirectory()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).safetensors")
        try FileManager.default.moveItem(at: dir.appendingPathComponent("weights.safetensors"), to: outside)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("weights.safetensors"), withDestinationURL: outside)
        #expect(throws: DigitalInkError.modelCorrupt(file: "weights.safetensors", reason: "the file lies outside the model directory")) {
            _ = try LoadedModel(directory: dir)
        }
    }

    @Test("labels that do not match the classes, an unknown scheme, malformed JSON")
    func badConfig() throws {
        let dirs = [
            try makeTinyModelDirectory { $0["labels"] = ["a"] },
            try makeTinyModelDirectory { c in c["features"] = ["scheme": "bezier-v9", "stepsPerLineHeight": 8] },
            try makeTinyModelDirectory { $0["formatVersion"] = 99 },
        ]
        for dir in dirs {
            #expect(throws: DigitalInkError.self) { try LoadedModel(directory: dir) }
        }
        let dir = try makeTinyModelDirectory()
        try Data("{\"formatVersion\": 1,".utf8).write(to: dir.appendingPathComponent("config.json"))
        do { _ = try LoadedModel(directory: dir); Issue.record("loaded malformed config") } catch {
            guard case .modelCorrupt(let file, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(file == "config.json")
        }
    }

    @Test("a missing model directory is a typed error, also through the recognizer, and the model is not loaded")
    func missing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-model-\(UUID().uuidString)")
        let r = DigitalInkRecognizer(options: .init(modelDirectory: dir))
        let direct: DigitalInkError
        do { _ = try LoadedModel(directory: dir); Issue.record("loaded a missing directory"); return } catch { direct = error }
        // The loader passes on the load's own error (no "?" file), and the next attempt tries again.
        for _ in 0..<2 {
            await #expect(throws: direct) {
                try await r.recognize(Ink(strokes: [Stroke(points: [StrokePoint(x: 1, y: 1)])]))
            }
            #expect(await r.isLoaded == false)
        }
    }

    @Test("every error reads as its description through localizedDescription (LocalizedError)")
    func localizedDescriptions() {
        let errors: [DigitalInkError] = [
            .invalidInk(.nonFiniteCoordinate(stroke: 1, point: 2)), .invalidInk(.tooManyLines(limit: 200)),
            .malformedInput(source: "a.json", line: 3, field: "strokes[0]", reason: "expected an array"),
            .modelNotFound(identifier: "tlh"), .modelNotDownloaded(identifier: "de"),
            .modelCorrupt(file: "weights.bin", reason: "truncated"),
            .tensorShapeMismatch(tensor: "head.weight", expected: [2, 3], actual: [3, 2]),
            .manifestMalformed(source: "manifest.json", reason: "no models"),
            .downloadFailed(url: "https://example.invalid/m", status: 404, reason: "not found"),
            .checksumMismatch(file: "w.bin", expected: "ab", actual: "cd"),
            .storageFailed(path: "/x", reason: "disk full"), .invalidOption(name: "beamWidth", reason: "0"), .cancelled,
        ]
        for error in errors {
            #expect((error as any Error).localizedDescription == error.description)
            #expect(error.errorDescription == error.description)
        }
        #expect((DigitalInkError.modelNotFound(identifier: "tlh") as any Error).localizedDescription == "no model \"tlh\" in the repository")
    }

    @Test("a language model file that is truncated or has the wrong symbol count")
    func badLanguageModel() throws {
        let small = try Data(contentsOf: Fixtures.url("lm-small.bin"))
        #expect(throws: DigitalInkError.self) { try CharacterNgramModel(data: small.prefix(small.count - 3)) }
        #expect(throws: DigitalInkError.self) { try CharacterNgramModel(data: Data("INKLM1".utf8)) }
        // The small LM has 166 symbols; the tiny network has 7 classes.
        let dir = try makeTinyModelDirectory { c in
            c["decoder"] = ["languageModel": "lm.bin", "lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4]
        }
        try small.write(to: dir.appendingPathComponent("lm.bin"))
        do { _ = try LoadedModel(directory: dir); Issue.record("accepted a mismatched LM") } catch {
            guard case .modelCorrupt(let file, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(file == "lm.bin")
        }
    }
}
