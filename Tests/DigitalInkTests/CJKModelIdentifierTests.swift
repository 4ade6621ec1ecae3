import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Language tags for the Japanese and Chinese models (`ja`, `zh-Hans`, `zh-Hant`): Chinese needs its
/// script, inferred from the region when the tag has none, and a Traditional Chinese tag never falls
/// back to the Simplified model (nor the reverse).
@Suite("CJK model identifiers: ja, zh-Hans, zh-Hant")
struct CJKModelIdentifierTests {
    typealias Identifier = DigitalInkRecognitionModelIdentifier

    /// The scratch export's model.json aliases.
    static let aliases = [
        "ja": ["ja-JP", "ja-Jpan"],
        "zh-Hans": ["zh", "zh-CN", "zh-SG", "zh-Hans-CN"],
        "zh-Hant": ["zh-TW", "zh-HK", "zh-MO", "zh-Hant-TW"],
        "en-US": ["en"], "sr-Cyrl": ["sr"],
    ]

    /// A manifest of `tags` (each model with its aliases above when `withAliases`).
    static func manifest(_ tags: [String], withAliases: Bool) -> ModelManifest {
        let sha = String(repeating: "0", count: 64)
        return ModelManifest(models: tags.map { tag in
            ModelManifest.Model(
                identifier: try! Identifier(languageTag: tag),
                aliases: withAliases ? (aliases[tag] ?? []).map { try! Identifier(languageTag: $0) } : [],
                version: "1", license: "MIT", files: [ModelManifest.File(path: "\(tag)/config.json", size: 1, sha256: sha)])
        })
    }

    static let models = ["en-US", "ja", "sr-Cyrl", "sr-Latn", "zh-Hans", "zh-Hant"]

    static let traditional = ["zh-TW", "zh-HK", "zh-MO", "zh-Hant", "zh-Hant-TW", "zh-Hant-HK", "zh-Hant-MO", "zh-Hant-CN",
                              "ZH_tw", "zh_hant_hk", "cmn-TW", "cmn-Hant", "zh-TW-u-nu-hanidec"]
    static let simplified = ["zh", "zh-CN", "zh-SG", "zh-Hans", "zh-Hans-CN", "zh-Hans-SG", "zh-Hans-TW", "zh-MY",
                             "ZH_cn", "zh_HANS", "cmn", "cmn-CN"]
    static let japanese = ["ja", "ja-JP", "JA_jp", "ja-Jpan", "ja-Jpan-JP"]

    // MARK: The script a tag implies

    @Test("Chinese tags imply Hant for TW, HK and MO, Hans otherwise; a script subtag wins over the region")
    func impliedScript() throws {
        for tag in Self.traditional { #expect(try Identifier(languageTag: tag).impliedScript == "Hant", "\(tag)") }
        for tag in Self.simplified { #expect(try Identifier(languageTag: tag).impliedScript == "Hans", "\(tag)") }
        #expect(try Identifier(languageTag: "ja").impliedScript == nil)
        #expect(try Identifier(languageTag: "ja-JP").impliedScript == nil)
        #expect(try Identifier(languageTag: "ja-Jpan").impliedScript == "Jpan")
        #expect(try Identifier(languageTag: "sr-Latn").impliedScript == "Latn")
        #expect(try Identifier(languageTag: "sr").impliedScript == "Cyrl")
    }

    // MARK: Matching against a manifest

    @Test("Traditional Chinese tags find zh-Hant, with or without the model.json aliases", arguments: [true, false])
    func traditionalFindsHant(_ withAliases: Bool) throws {
        let manifest = Self.manifest(Self.models, withAliases: withAliases)
        for tag in Self.traditional {
            #expect(try Identifier.from(languageTag: tag, in: manifest)?.languageTag == "zh-Hant", "\(tag)")
        }
    }

    @Test("Simplified Chinese tags find zh-Hans, with or without the model.json aliases", arguments: [true, false])
    func simplifiedFindsHans(_ withAliases: Bool) throws {
        let manifest = Self.manifest(Self.models, withAliases: withAliases)
        for tag in Self.simplified {
            #expect(try Identifier.from(languageTag: tag, in: manifest)?.languageTag == "zh-Hans", "\(tag)")
        }
    }

    @Test("Japanese tags find ja, with or without the model.json aliases", arguments: [true, false])
    func japaneseFindsJa(_ withAliases: Bool) throws {
        let manifest = Self.manifest(Self.models, withAliases: withAliases)
        for tag in Self.japanese {
            #expect(try Identifier.from(languageTag: tag, in: manifest)?.languageTag == "ja", "\(tag)")
        }
        #expect(try Identifier.from(languageTag: "ko", in: manifest) == nil)
        #expect(try Identifier.from(languageTag: "yue-HK", in: manifest) == nil)
    }

    @Test("the other languages match as before", arguments: [true, false])
    func othersUnchanged(_ withAliases: Bool) throws {
        let manifest = Self.manifest(Self.models, withAliases: withAliases)
        for (tag, expected) in [("sr-Latn", "sr-Latn"), ("sr-Latn-RS", "sr-Latn"), ("sr-ME", "sr-Latn"), ("sr", "sr-Cyrl"),
                                ("sr-RS", "sr-Cyrl"), ("en", "en-US"), ("en-GB", "en-US")] {
            #expect(try Identifier.from(languageTag: tag, in: manifest)?.languageTag == expected, "\(tag)")
        }
    }

    @Test("without a zh-Hant model no Traditional tag falls back to zh-Hans, and without zh-Hans no Simplified tag to zh-Hant",
          arguments: [true, false])
    func noFallbackAcrossScripts(_ withAliases: Bool) throws {
        let simplifiedOnly = Self.manifest(["en-US", "ja", "zh-Hans"], withAliases: withAliases)
        for tag in Self.traditional {
            #expect(try Identifier.from(languageTag: tag, in: simplifiedOnly) == nil, "\(tag)")
        }
        #expect(try Identifier.from(languageTag: "zh-CN", in: simplifiedOnly)?.languageTag == "zh-Hans")
        let traditionalOnly = Self.manifest(["ja", "zh-Hant"], withAliases: withAliases)
        for tag in Self.simplified {
            #expect(try Identifier.from(languageTag: tag, in: traditionalOnly) == nil, "\(tag)")
        }
        #expect(try Identifier.from(languageTag: "zh-HK", in: traditionalOnly)?.languageTag == "zh-Hant")
        // A model named by the bare language is Simplified: zh-TW does not take it either.
        let bare = Self.manifest(["zh"], withAliases: false)
        #expect(try Identifier.from(languageTag: "zh-TW", in: bare) == nil)
        #expect(try Identifier.from(languageTag: "zh-SG", in: bare)?.languageTag == "zh")
    }

    // MARK: ModelManager resolution

    /// A repository directory of ja, zh-Hans and zh-Hant (fake files), aliased or not.
    static func fixture(withAliases: Bool, models: [String] = ["ja", "zh-Hans", "zh-Hant"]) throws -> ModelTestFixture {
        try ModelTestFixture(models: models.enumerated().map { k, tag in
            TestModelSpec(
                identifier: tag, aliases: withAliases ? aliases[tag] ?? [] : [], network: "cjk-v1",
                files: [
                    "\(tag)/config.json": Data(#"{"network": "../shared/cjk-v1/weights.safetensors", "languageModel": "lm.bin"}"#.utf8),
                    "\(tag)/lm.bin": ModelTestFixture.bytes(4 * 1024, seed: UInt64(10 + k)),
                    "shared/cjk-v1/weights.safetensors": ModelTestFixture.bytes(8 * 1024, seed: 9),
                ])
        })
    }

    @Test("ModelManager.modelIdentifier(forLanguageTag:) resolves the CJK tags in a repository", arguments: [true, false])
    func managerResolves(_ withAliases: Bool) async throws {
        let fixture = try Self.fixture(withAliases: withAliases)
        let manager = fixture.manager(repository: .directory(fixture.repositoryDirectory))
        for (tags, expected) in [(Self.traditional, "zh-Hant"), (Self.simplified, "zh-Hans"), (Self.japanese, "ja")] {
            for tag in tags {
                #expect(try await manager.modelIdentifier(forLanguageTag: tag)?.languageTag == expected, "\(tag)")
            }
        }
    }

    @Test("a repository with only zh-Hans answers nil for zh-TW", arguments: [true, false])
    func managerDoesNotFallBack(_ withAliases: Bool) async throws {
        let fixture = try Self.fixture(withAliases: withAliases, models: ["ja", "zh-Hans"])
        let manager = fixture.manager(repository: .directory(fixture.repositoryDirectory))
        #expect(try await manager.modelIdentifier(forLanguageTag: "zh-TW") == nil)
        #expect(try await manager.modelIdentifier(forLanguageTag: "zh-Hant-HK") == nil)
        #expect(try await manager.modelIdentifier(forLanguageTag: "zh-SG")?.languageTag == "zh-Hans")
        #expect(try await manager.modelIdentifier(forLanguageTag: "ja-JP")?.languageTag == "ja")
    }

    // MARK: The shipped models

    static func shippedManifest() throws -> ModelManifest {
        try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
    }

    @Test("the shipped manifest: Chinese and Japanese tags find ja, zh-Hans and zh-Hant")
    func shippedMatching() throws {
        let shipped = try Self.shippedManifest()
        for (tags, expected) in [(Self.traditional, "zh-Hant"), (Self.simplified, "zh-Hans"), (Self.japanese, "ja")] {
            for tag in tags {
                #expect(try Identifier.from(languageTag: tag, in: shipped)?.languageTag == expected, "\(tag)")
            }
        }
        #expect(try Identifier.from(languageTag: "ko", in: shipped)?.languageTag == "ko")  // Korean has its own model
        #expect(try Identifier.from(languageTag: "zh-Latn", in: shipped) == nil)
    }

    @Test("the three shipped CJK models share one network file, listed with one checksum, within the size budget")
    func shippedModelsShareTheNetwork() throws {
        let shipped = try Self.shippedManifest()
        let cjk = shipped.models.filter { ["ja", "zh-Hans", "zh-Hant"].contains($0.identifier.languageTag) }
        #expect(cjk.count == 3)
        let networkFiles = cjk.map { model in model.files.filter { $0.path.hasPrefix("cjk-bilstm") } }
        #expect(networkFiles.allSatisfy { $0.count == 1 })
        #expect(Set(networkFiles.compactMap { $0.first?.sha256 }).count == 1)
        // Issue 18: each model, its language model and the shared network together, at most 12 MB.
        for model in cjk {
            let bytes = model.files.reduce(0) { $0 + $1.size }
            #expect(bytes <= 12_000_000, "\(model.identifier.languageTag): \(bytes) bytes")
        }
    }
}
