import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("ModelManager identifiers")
struct ModelManagerIdentifierTests {
    typealias Identifier = DigitalInkRecognitionModelIdentifier

    @Test func parsesAndCanonicalizesSubtags() throws {
        let id = try Identifier(languageTag: "ZH_hant_tw")
        #expect(id.languageTag == "zh-Hant-TW")
        #expect(id.languageSubtag == "zh")
        #expect(id.scriptSubtag == "Hant")
        #expect(id.regionSubtag == "TW")
        #expect(id.privateUseSubtag == nil)
        #expect(id.isTextModel)

        let es = try Identifier(languageTag: "es-419")
        #expect(es.regionSubtag == "419")
        #expect(es.scriptSubtag == nil)

        let shapes = try Identifier(languageTag: "zxx-zsym-x-Shapes")
        #expect(shapes == .shapes)
        #expect(shapes.languageTag == "zxx-Zsym-x-shapes")
        #expect(shapes.scriptSubtag == "Zsym")
        #expect(shapes.privateUseSubtag == "shapes")
        #expect(!shapes.isTextModel)
        // ML Kit's identifiers of models that do not ship (their constants are unavailable) still parse.
        #expect(try Identifier(languageTag: "zxx-zsye-x-emoji").languageTag == "zxx-Zsye-x-emoji")
        #expect(try !Identifier(languageTag: "zxx-Zsym-x-autodraw").isTextModel)

        #expect(try Identifier(languageTag: "de-CH-1901").languageTag == "de-CH-1901")
        #expect(try Identifier(languageTag: "en-US-u-ca-gregory").regionSubtag == "US")
    }

    @Test(arguments: ["", "e", "english-is-not-a-tag!", "en--US", "en-US-", "1234", "en-x", "en-a", "zxx-Zsym-x-waytoolongsubtag"])
    func rejectsMalformedTags(_ tag: String) {
        #expect {
            _ = try Identifier(languageTag: tag)
        } throws: { error in
            guard case .malformedInput = error as? DigitalInkError else { return false }
            return true
        }
    }

    @Test func encodesAsASingleString() throws {
        let id = try Identifier(languageTag: "en-us")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["en-US"]"#)
        #expect(try JSONDecoder().decode([Identifier].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Identifier].self, from: Data(#"["not a tag"]"#.utf8)) }
    }

    /// A manifest entry named `tag` (with `aliases`) holding one placeholder file.
    static func model(_ tag: String, _ aliases: [String] = []) -> ModelManifest.Model {
        ModelManifest.Model(
            identifier: try! Identifier(languageTag: tag),
            aliases: aliases.map { try! Identifier(languageTag: $0) }, version: "1", license: "MIT",
            files: [ModelManifest.File(path: "\(tag)/config.json", size: 1, sha256: String(repeating: "0", count: 64))])
    }

    /// en-US (alias en), en-IN, fr-FR, sr-Cyrl (alias sr), sr-Latn, zh-Hans-CN, zh-Hant-TW, he, shapes.
    static let manifest: ModelManifest = {
        ModelManifest(models: [
            model("en-US", ["en"]), model("en-IN"), model("fr-FR"), model("sr-Cyrl", ["sr"]), model("sr-Latn"),
            model("zh-Hans-CN"), model("zh-Hant-TW"), model("he"), model("zxx-Zsym-x-shapes"),
            model("es-ES", ["es"]), model("es-MX"), model("ar"), model("nb"), model("ms"),
        ])
    }()

    @Test(arguments: [
        ("en-US", "en-US"), ("en", "en-US"), ("EN_us", "en-US"), ("en-GB", "en-US"), ("en-IN", "en-IN"),
        ("en-Latn-IN", "en-IN"), ("fr", "fr-FR"), ("fr-CA", "fr-FR"), ("sr", "sr-Cyrl"), ("sr-Latn-RS", "sr-Latn"),
        ("zh-TW", "zh-Hant-TW"), ("zh-Hant", "zh-Hant-TW"), ("zh-Hans", "zh-Hans-CN"), ("iw-IL", "he"),
        ("zxx-Zsym-x-shapes", "zxx-Zsym-x-shapes"),
        // Implicit scripts.
        ("zh", "zh-Hans-CN"), ("zh-CN", "zh-Hans-CN"), ("zh-SG", "zh-Hans-CN"), ("zh-HK", "zh-Hant-TW"),
        ("zh-MO", "zh-Hant-TW"), ("sr-RS", "sr-Cyrl"), ("sr-ME", "sr-Latn"),
        // Macrolanguages and their individual languages.
        ("cmn", "zh-Hans-CN"), ("cmn-TW", "zh-Hant-TW"), ("cmn-Hant", "zh-Hant-TW"), ("arb", "ar"), ("ar-EG", "ar"),
        ("no", "nb"), ("nob-NO", "nb"), ("zsm", "ms"),
        // Region containment.
        ("es-419", "es-MX"), ("es", "es-ES"), ("es-ES", "es-ES"), ("es-US", "es-ES"),
    ])
    func findsTheBestModel(_ tag: String, _ expected: String) throws {
        let found = try Identifier.from(languageTag: tag, in: Self.manifest)
        #expect(found?.languageTag == expected)
    }

    /// The models issue 39 names: Serbian in Cyrillic as `sr`, Serbian in Latin letters served by `hr` (aliases).
    static let scriptsManifest: ModelManifest = {
        ModelManifest(models: [
            model("hr", ["bs", "sr-Latn", "sh"]), model("sr"), model("ru"), model("uk"), model("bg"), model("mk"),
            model("el"), model("ko"), model("vi"), model("he"), model("ar"), model("fa"), model("ur"),
            model("hi"), model("bn"), model("ta"), model("th"),
        ])
    }()

    @Test("Cyrillic, Greek, Korean, Vietnamese, Hebrew (iw is he), Arabic, Persian, Urdu, Hindi, Bengali, Tamil and Thai tags; sr alone is Cyrillic, sr-Latn (any region) stays with hr", arguments: [
        ("ru-RU", "ru"), ("uk-UA", "uk"), ("bg-BG", "bg"), ("mk-MK", "mk"), ("el-GR", "el"), ("el-CY", "el"),
        ("ko-KR", "ko"), ("ko-Kore-KR", "ko"), ("vi-VN", "vi"), ("sr", "sr"), ("sr-RS", "sr"), ("sr-Cyrl-RS", "sr"),
        ("sr-Cyrl", "sr"), ("sr-Latn", "hr"), ("sr-Latn-RS", "hr"), ("sr-ME", "hr"), ("bs-BA", "hr"), ("sh", "hr"),
        ("hr-HR", "hr"), ("he-IL", "he"), ("iw", "he"), ("iw-IL", "he"), ("he-Hebr-IL", "he"),
        ("ar-EG", "ar"), ("ar-SA", "ar"), ("ar-Arab-MA", "ar"), ("fa-IR", "fa"), ("fa-AF", "fa"), ("ur-PK", "ur"),
        ("ur-IN", "ur"), ("hi-IN", "hi"), ("hi-Deva-IN", "hi"), ("bn-BD", "bn"), ("bn-IN", "bn"),
        ("ta-IN", "ta"), ("ta-LK", "ta"), ("ta-SG", "ta"), ("th-TH", "th"), ("th-Thai-TH", "th"),
    ])
    func findsTheScriptModels(_ tag: String, _ expected: String) throws {
        #expect(try Identifier.from(languageTag: tag, in: Self.scriptsManifest)?.languageTag == expected)
    }

    @Test(arguments: ["de", "de-DE", "zxx-Zsye-x-emoji", "zxx", "sr-Arab", "zh-Latn", "yue", "fil", "cmn-Latn"])
    func unknownLanguagesGiveNil(_ tag: String) throws {
        #expect(try Identifier.from(languageTag: tag, in: Self.manifest) == nil)
    }

    @Test func malformedTagsThrowWhenMatching() {
        #expect(throws: DigitalInkError.self) { try Identifier.from(languageTag: "en--", in: Self.manifest) }
    }

    @Test("the embedded repository is the main bundle's Models folder, never the source tree")
    func embeddedRepositoryIsTheAppsBundle() throws {
        let directory = ModelRepository.embedded.baseURL
        #expect(directory == (Bundle.main.resourceURL ?? Bundle.main.bundleURL).appendingPathComponent("Models", isDirectory: true))
        #expect(ModelRepository.embedded.isLocal)
        // The test runner bundles no models: nothing is found, nothing crashes.
        if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) {
            #expect(try Identifier.from(languageTag: "en-US") == nil)
            #expect(Identifier.allModelIdentifiers().isEmpty)
        }
        let module = ModelRepository.bundle(Bundle.module, subdirectory: "Fixtures")
        #expect(module.baseURL.lastPathComponent == "Fixtures" && module.isLocal)
        #expect(!ModelRepository.remote(URL(string: "https://example.invalid/models")!).isLocal)
        #expect(ModelRepository.remote(URL(string: "https://example.invalid/models")!).url(forPath: "en-US/lm.bin").absoluteString
            == "https://example.invalid/models/en-US/lm.bin")
    }

    @Test func modelWrapsItsIdentifier() throws {
        let model = DigitalInkRecognitionModel(modelIdentifier: try Identifier(languageTag: "en-US"))
        #expect(model.modelIdentifier.languageTag == "en-US")
        #expect(model == DigitalInkRecognitionModel(modelIdentifier: try Identifier(languageTag: "en-us")))
        #expect(model.description == "en-US")
    }

    @Test func shippedManifestMatching() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        #expect(try Identifier.from(languageTag: "en-GB", in: shipped)?.languageTag == "en-US")
        #expect(try Identifier.from(languageTag: "en", in: shipped)?.languageTag == "en-US")
        #expect(try Identifier.from(languageTag: "ja-JP", in: shipped)?.languageTag == "ja")
        #expect(try Identifier.from(languageTag: "ko", in: shipped)?.languageTag == "ko")
        #expect(try Identifier.from(languageTag: "ru-RU", in: shipped)?.languageTag == "ru")
        #expect(try Identifier.from(languageTag: "el-GR", in: shipped)?.languageTag == "el")
        #expect(try Identifier.from(languageTag: "zxx-Zsym-x-shapes", in: shipped) == .shapes)
    }

    @Test("the shipped Latin language models: regions and related tags find them", arguments: [
        ("de", "de"), ("de-DE", "de"), ("de-AT", "de"), ("de-CH", "de-CH"), ("fr-CA", "fr"), ("fr-FR", "fr"),
        ("pt-BR", "pt"), ("pt-PT", "pt"), ("es-MX", "es"), ("es-419", "es"), ("hr", "hr"), ("bs", "hr"),
        ("sr-Latn", "hr"), ("sh", "hr"), ("no", "nb"), ("nb-NO", "nb"), ("nn", nil), ("tl", "fil"), ("fil-PH", "fil"),
        ("pl-PL", "pl"), ("tr-TR", "tr"), ("is", "is"), ("vi", "vi"), ("vi-VN", "vi"), ("vi-Latn-VN", "vi"),
        ("ru", "ru"), ("ru-RU", "ru"), ("ru-Cyrl-RU", "ru"), ("uk-UA", "uk"), ("bg-BG", "bg"), ("mk-MK", "mk"),
        ("sr", "sr"), ("sr-RS", "sr"), ("sr-Cyrl-RS", "sr"), ("sr-Cyrl", "sr"), ("sr-Latn-RS", "hr"), ("sr-ME", "hr"),
        ("el", "el"), ("el-GR", "el"), ("el-CY", "el"), ("el-Grek-GR", "el"), ("be", nil), ("kk", nil),
        ("ko", "ko"), ("ko-KR", "ko"), ("ko-Kore-KR", "ko"), ("ko-KP", "ko"),
        ("he", "he"), ("he-IL", "he"), ("iw", "he"), ("iw-IL", "he"), ("yi", nil),
        ("ar", "ar"), ("ar-EG", "ar"), ("ar-SA", "ar"), ("fa", "fa"), ("fa-IR", "fa"), ("ur", "ur"), ("ur-PK", "ur"),
        ("ps", nil), ("ckb", nil), ("sd", nil),
        ("hi", "hi"), ("hi-IN", "hi"), ("bn", "bn"), ("bn-BD", "bn"), ("bn-IN", "bn"), ("mr", nil), ("ne", nil),
        ("as", nil), ("ta", "ta"), ("ta-IN", "ta"), ("ta-LK", "ta"), ("te", nil), ("ml", nil),
        ("th", "th"), ("th-TH", "th"), ("lo", nil),
    ] as [(String, String?)])
    func shippedLatinModels(_ tag: String, _ expected: String?) throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        #expect(try Identifier.from(languageTag: tag, in: shipped)?.languageTag == expected)
    }

    @Test("every Latin language model shares one network file, listed with one checksum")
    func latinModelsShareTheNetwork() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        let latin = shipped.models.filter { ($0.network ?? "").hasPrefix("latn-bilstm") && $0.files.contains { $0.path.hasPrefix("latn-") } }
        #expect(latin.count >= 25)
        let networkFiles = latin.map { model in model.files.filter { $0.path.hasPrefix("latn-") } }
        #expect(networkFiles.allSatisfy { $0.count == 1 })
        #expect(Set(networkFiles.compactMap { $0.first?.sha256 }).count == 1)
    }

    @Test("vi reads a network of its own (the Latin letters and Vietnamese's), not the shared Latin file")
    func vietnameseHasItsOwnNetwork() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        let vi = try #require(shipped.models.first { $0.identifier.languageTag == "vi" })
        #expect(vi.network == "latn-vi-bilstm96x3")
        let latin = try #require(shipped.models.first { $0.identifier.languageTag == "de" })
        let viNetwork = try #require(vi.files.first { $0.path.hasPrefix("latn-vi-bilstm") })
        #expect(!latin.files.contains { $0.sha256 == viNetwork.sha256 })
    }

    @Test("the Cyrillic models share one network of their own, listed with one checksum, apart from the Latin file")
    func cyrillicModelsShareTheirNetwork() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        let cyrillic = ["ru", "uk", "bg", "mk", "sr"].compactMap { tag in shipped.models.first { $0.identifier.languageTag == tag } }
        #expect(cyrillic.count == 5)
        #expect(cyrillic.allSatisfy { $0.network == "cyrl-bilstm96x3" })
        let files = cyrillic.map { model in model.files.filter { $0.path.hasPrefix("cyrl-") } }
        #expect(files.allSatisfy { $0.count == 1 })
        #expect(Set(files.compactMap { $0.first?.sha256 }).count == 1)
        let latin = try #require(shipped.models.first { $0.identifier.languageTag == "de" })
        #expect(!latin.files.contains { $0.sha256 == files.first?.first?.sha256 })
    }

    @Test("el reads a Greek network of its own, apart from the Latin and Cyrillic files")
    func greekHasItsOwnNetwork() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        let el = try #require(shipped.models.first { $0.identifier.languageTag == "el" })
        #expect(el.network == "grek-bilstm96x3")
        let network = try #require(el.files.first { $0.path.hasPrefix("grek-bilstm") })
        for other in ["de", "ru"] {
            let model = try #require(shipped.models.first { $0.identifier.languageTag == other })
            #expect(!model.files.contains { $0.sha256 == network.sha256 })
        }
    }

    @Test("the shipped models within their budgets: every language model but en-US's at most 2 MB, Models/ at most 120 MB")
    func shippedSizes() throws {
        let shipped = try ModelManifest(data: Data(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("manifest.json")))
        var unique: [String: Int64] = [:]
        for model in shipped.models {
            for file in model.files { unique[file.path] = file.size }
            let isAlphabetic = (model.network ?? "").hasPrefix("latn-") || (model.network ?? "").hasPrefix("cyrl-")
            if isAlphabetic && model.identifier.languageTag != "en-US", let lm = model.files.first(where: { $0.path.hasSuffix("/lm.bin") }) {
                #expect(lm.size <= 2_000_000, "\(lm.path): \(lm.size) bytes")
            }
        }
        let total = unique.values.reduce(0, +)
        #expect(total <= 120_000_000, "\(total) bytes")
    }

    @Test func defaultStorageFollowsXDGCacheHome() {
        let home = URL(fileURLWithPath: "/home/ink", isDirectory: true)
        #expect(ModelManager.linuxStorageDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me"], home: home).path
            == "/var/cache/me/digitalink-models")
        #expect(ModelManager.linuxStorageDirectory(environment: ["XDG_CACHE_HOME": "relative/cache"], home: home).path
            == "/home/ink/.cache/digitalink-models")
        #expect(ModelManager.linuxStorageDirectory(environment: [:], home: home).path == "/home/ink/.cache/digitalink-models")
    }
}
