import Foundation
@_spi(Engine) @testable import DigitalInk

/// Two loadable text models, `de-DE` and `fr-FR`, that share one network (the tiny fixture
/// network) in a folder beside theirs, as the Latin-script languages share one: each lists
/// `latn-tiny/weights.safetensors` and names it `../latn-tiny/weights.safetensors` in its config.
enum SharedNetworkFixture {
    static let sharedPath = "latn-tiny/weights.safetensors"
    static var weights: Data { try! Data(contentsOf: Fixtures.url("tiny-network/weights.safetensors")) }

    /// A tiny text-model config.json naming `weights` (different for each identifier).
    static func config(identifier: String, weights: String = "../latn-tiny/weights.safetensors") throws -> Data {
        var network = try Fixtures.json("tiny-network/golden.json")["network"] as! [String: Any]
        network["weights"] = weights
        let config: [String: Any] = [
            "formatVersion": 1, "identifier": identifier, "kind": "text",
            "features": ["scheme": "resampled-v1", "stepsPerLineHeight": 8],
            "network": network, "labels": ["a", "b", "c", "d", " ", "e"], "blankIndex": 0,
            "decoder": ["lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4],
        ]
        return try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])
    }

    static func specs() throws -> [TestModelSpec] {
        try ["de-DE", "fr-FR"].map { id in
            TestModelSpec(
                identifier: id, aliases: [String(id.prefix(2))], network: "latn-tiny",
                files: [
                    "\(id)/config.json": try config(identifier: id),
                    "\(id)/MODEL_CARD.md": Data("# \(id)\n".utf8),
                    sharedPath: weights,
                ])
        }
    }

    static let german = ModelTestFixture.model("de-DE")
    static let french = ModelTestFixture.model("fr-FR")

    static let ink = Ink(strokes: [Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: 10, y: 10), StrokePoint(x: 20, y: 0)])])

    /// Recognizes the test ink with `model` installed in `manager` (a new recognizer: the files are
    /// read now).
    static func recognize(_ model: DigitalInkRecognitionModel, _ manager: ModelManager) async throws -> DigitalInkRecognitionResult {
        try await DigitalInkRecognizer(options: .init(model: model, modelManager: manager)).recognize(ink)
    }

    /// Overwrites a file in place (its inode, so every hard link to it) with other bytes of the same
    /// size, or cuts it to `truncateTo` bytes.
    static func damage(_ url: URL, truncateTo: UInt64? = nil) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        if let truncateTo {
            try handle.truncate(atOffset: truncateTo)
        } else {
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data(repeating: 0x5A, count: Int(size)))
        }
    }
}
