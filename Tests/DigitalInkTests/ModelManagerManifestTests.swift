import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("ModelManager manifest")
struct ModelManagerManifestTests {
    typealias Identifier = DigitalInkRecognitionModelIdentifier
    static let zeros = String(repeating: "0", count: 64)

    @Test func makeComputesSizesAndDigestsFromDisk() throws {
        let fixture = try ModelTestFixture()
        let manifest = fixture.manifest
        #expect(manifest.formatVersion == 1)
        #expect(manifest.models.map(\.identifier.languageTag) == ["en-US", "fr-FR", "zxx-Zsym-x-shapes"])
        let english = try #require(manifest.model(for: try Identifier(languageTag: "en-US")))
        let weights = try #require(english.files.first { $0.path == ModelTestFixture.sharedWeightsPath })
        #expect(weights.size == Int64(ModelTestFixture.sharedWeights.count))
        #expect(weights.sha256 == FileDigest(of: ModelTestFixture.sharedWeights).sha256)
        #expect(english.configFile?.path == "en-US/config.json")
        #expect(english.aliases.map(\.languageTag) == ["en"])
        #expect(english.network == "latn-v1")
        #expect(english.totalSize == english.files.reduce(0) { $0 + $1.size })

        // Written and read back, the manifest is unchanged.
        let url = fixture.repositoryDirectory.appendingPathComponent("manifest.json")
        #expect(try ModelManifest(contentsOf: url) == manifest)
        let text = String(decoding: manifest.encoded(), as: UTF8.self)
        #expect(text.contains(#""path" : "shared/latn-v1/weights.safetensors""#))
    }

    @Test func readsTheDocumentedFormat() throws {
        let json = """
            {"formatVersion": 1,
             "models": [
              {"identifier": "en-US", "aliases": ["en"], "version": "1.0.0", "kind": "text", "network": "latn-v1",
               "license": "CC-BY-4.0", "description": "English, Latin script",
               "files": [{"path": "en-US/config.json", "size": 1234, "sha256": "\(Self.zeros.uppercased())"},
                         {"path": "en-US/lm.bin", "size": 5000000, "sha256": "\(Self.zeros)"}]},
              {"identifier": "zxx-Zsym-x-shapes", "version": "2", "kind": "shapes", "license": "MIT",
               "files": [{"path": "shapes/config.json", "size": 1, "sha256": "\(Self.zeros)"}]}
             ]}
            """
        let manifest = try ModelManifest(data: Data(json.utf8))
        #expect(manifest.models.count == 2)
        #expect(manifest.models[0].files[0].sha256 == Self.zeros)  // normalized to lower case
        #expect(manifest.models[1].kind == .shapes)
        #expect(manifest.models[1].aliases.isEmpty)
        #expect(manifest.models[1].network == nil)
    }

    static func entry(_ tag: String = "en-US", files: [ModelManifest.File]) -> ModelManifest.Model {
        ModelManifest.Model(identifier: try! Identifier(languageTag: tag), version: "1", license: "MIT", files: files)
    }

    static let invalidManifests: [(String, ModelManifest)] = {
        let config = ModelManifest.File(path: "a/config.json", size: 1, sha256: zeros)
        let other = ModelManifest.File(path: "a/lm.bin", size: 1, sha256: zeros)
        return [
            ("no config.json", ModelManifest(models: [entry(files: [other])])),
            ("two config.json", ModelManifest(models: [entry(files: [config, ModelManifest.File(path: "b/config.json", size: 1, sha256: zeros)])])),
            ("parent path", ModelManifest(models: [entry(files: [config, ModelManifest.File(path: "../etc/passwd", size: 1, sha256: zeros)])])),
            ("absolute path", ModelManifest(models: [entry(files: [config, ModelManifest.File(path: "/etc/passwd", size: 1, sha256: zeros)])])),
            ("bad digest", ModelManifest(models: [entry(files: [ModelManifest.File(path: "a/config.json", size: 1, sha256: "abc")])])),
            ("duplicate identifier", ModelManifest(models: [entry(files: [config]), entry(files: [config])])),
            ("shared path, different digest", ModelManifest(models: [
                entry(files: [config, other]),
                entry("fr-FR", files: [ModelManifest.File(path: "b/config.json", size: 1, sha256: zeros),
                                       ModelManifest.File(path: "a/lm.bin", size: 2, sha256: zeros)]),
            ])),
            ("format version 2", ModelManifest(formatVersion: 2, models: [])),
            ("size Int64.max", ModelManifest(models: [entry(files: [ModelManifest.File(path: "a/config.json", size: .max, sha256: zeros)])])),
            ("size above 1 TiB", ModelManifest(models: [entry(files: [ModelManifest.File(path: "a/config.json", size: (1 << 40) + 1, sha256: zeros)])])),
        ]
    }()

    @Test(arguments: invalidManifests)
    func rejectsInvalidManifests(_ reason: String, _ manifest: ModelManifest) {
        #expect(throws: DigitalInkError.self, "\(reason)") { try manifest.validate() }
        // The same problems are caught when reading.
        #expect(throws: DigitalInkError.self, "\(reason)") { _ = try ModelManifest(data: manifest.encoded()) }
    }

    @Test("a huge size from a repository is an error, and totals of hand-made entries saturate instead of trapping")
    func hugeSizes() throws {
        let json = #"{"formatVersion": 1, "models": [{"identifier": "en-US", "version": "1", "license": "MIT", "files": [{"path": "a/config.json", "size": 9223372036854775807, "sha256": "\#(Self.zeros)"}]}]}"#
        #expect(throws: DigitalInkError.self) { _ = try ModelManifest(data: Data(json.utf8)) }
        let big = ModelManifest.File(path: "a/x", size: .max, sha256: Self.zeros)
        #expect(Self.entry(files: [big, big, ModelManifest.File(path: "a/config.json", size: 5, sha256: Self.zeros)]).totalSize == .max)
    }

    @Test func malformedJSONIsManifestMalformed() {
        for json in ["not json", #"{"formatVersion": 1}"#, #"{"formatVersion": 1, "models": [{"identifier": "en-US"}]}"#] {
            #expect {
                _ = try ModelManifest(data: Data(json.utf8), source: "test.json")
            } throws: { error in
                guard case .manifestMalformed(let source, _) = error as? DigitalInkError else { return false }
                return source == "test.json"
            }
        }
    }
}
