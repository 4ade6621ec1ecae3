import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `decoder.contextSeparator` (``DecoderSettings/contextSeparator``): what joins a pre-context to the
/// text after it. A space by default, so that after a pre-context that ends in a letter the text may
/// start with a space; `""` for the languages written without spaces (ja, zh-Hans, zh-Hant).
@Suite("Context separator: no leading space for languages written without spaces")
struct ContextSeparatorTests {
    /// The shipped en-US model and the pre-context tests' frames(_:ambiguous:), which spell a text.
    let fixture: PreContextTests
    var model: LoadedModel { fixture.model }
    init() throws { fixture = try PreContextTests() }

    /// The shipped model's text decoder, with its `config.json` `decoder.contextSeparator` set to
    /// `separator` (nil: absent, as in the shipped file).
    func decoder(contextSeparator separator: String?) -> CTCTextDecoder {
        var configuration = model.configuration
        configuration.decoder?.contextSeparator = separator
        return CTCTextDecoder(configuration: configuration, classLabels: model.classLabels,
                              symbolOfCharacter: model.symbolOfCharacter, languageModel: model.languageModel)
    }

    static func options(contextSeparator: String? = nil) -> DigitalInkRecognizerOptions {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = 20
        options.decoder.contextSeparator = contextSeparator
        return options
    }

    /// The pre-context tests' frames that spell `pattern`, with the space far below every other class
    /// in every frame (-1000), so that no candidate has a space the ink put there: a candidate that
    /// starts with one has it from the pre-context rule alone. (In those frames every class but the
    /// written one is at log 1e-6, and a blank frame, without a symbol above the floor, extends by
    /// its best one, the space.)
    func frames(_ pattern: String, ambiguous: [Character] = []) -> FeatureMatrix {
        var m = fixture.frames(pattern, ambiguous: ambiguous)
        let space = model.symbolOfCharacter[" "]!
        for t in 0..<m.rows { m.values[t * m.columns + space] = -1000 }
        return m
    }

    /// Every candidate's text, best first, for frames that spell `pattern` after `preContext`.
    func texts(_ decoder: any CandidateDecoding, _ pattern: String, ambiguous: [Character] = [], preContext: String,
               options: DigitalInkRecognizerOptions = ContextSeparatorTests.options()) -> [String] {
        decoder.candidates(for: frames(pattern, ambiguous: ambiguous), context: RecognitionContext(preContext: preContext),
                           options: options).map(\.text)
    }

    static let preContextsEndingInALetter = ["hello", "arg", "alig", "The quick brown fox", "Hello", "我们"]

    @Test("the default (absent, or a space): after a pre-context that ends in a letter the text can start with a space")
    func defaultSeparatorAllowsALeadingSpace() throws {
        #expect(model.configuration.decoder?.contextSeparator == nil)
        #expect(model.configuration.contextSeparator() == " ")
        for separator in [nil, " "] as [String?] {
            let decoder = decoder(contextSeparator: separator)
            #expect(texts(decoder, "world", preContext: "hello").first == " world")
            // No pre-context, or one that ends in whitespace: no leading space.
            #expect(texts(decoder, "world", preContext: "").first == "world")
            #expect(texts(decoder, "world", preContext: "hello ").first == "world")
            for pre in Self.preContextsEndingInALetter {
                #expect(texts(decoder, "world", preContext: pre).contains { $0.hasPrefix(" ") }, "after \"\(pre)\"")
            }
        }
    }

    @Test("contextSeparator \"\": no candidate starts with a space after a pre-context that ends in a letter",
          arguments: preContextsEndingInALetter)
    func emptySeparatorNeverStartsWithASpace(_ preContext: String) throws {
        let decoder = decoder(contextSeparator: "")
        for (pattern, ambiguous) in [("world", [] as [Character]), ("?ment", ["u", "n"]), ("a", [])] {
            let candidates = texts(decoder, pattern, ambiguous: ambiguous, preContext: preContext)
            try #require(!candidates.isEmpty)
            #expect(candidates.allSatisfy { !$0.hasPrefix(" ") }, "\(pattern) after \"\(preContext)\": \(candidates)")
        }
        #expect(texts(decoder, "world", preContext: preContext).first == "world")
    }

    @Test("the language model still reads the pre-context with \"\": ument after arg, nment after alig")
    func emptySeparatorKeepsTheConditioning() {
        let decoder = decoder(contextSeparator: "")
        #expect(texts(decoder, "?ment", ambiguous: ["u", "n"], preContext: "arg").first == "ument")
        #expect(texts(decoder, "?ment", ambiguous: ["u", "n"], preContext: "alig").first == "nment")
    }

    @Test("DecoderSettings.contextSeparator overrides the model's, both ways")
    func optionOverridesTheModel() {
        let spaced = decoder(contextSeparator: nil), unspaced = decoder(contextSeparator: "")
        #expect(texts(spaced, "world", preContext: "hello", options: Self.options(contextSeparator: "")).allSatisfy { !$0.hasPrefix(" ") })
        #expect(texts(unspaced, "world", preContext: "hello", options: Self.options(contextSeparator: " ")).first == " world")
        #expect(decoder(contextSeparator: "").beamSearch.configuration.contextSeparator(options: Self.options(contextSeparator: " ")) == " ")
        #expect(decoder(contextSeparator: "").beamSearch.configuration.contextSeparator(options: Self.options()) == "")
    }

    @Test("a separator the model cannot write, or of more than one character, is never put before a candidate")
    func otherSeparators() {
        for separator in ["\u{3000}", "  ", "\t"] {
            let candidates = texts(decoder(contextSeparator: separator), "world", preContext: "hello")
            #expect(candidates.first == "world", "\(separator.unicodeScalars.map(\.value))")
            #expect(candidates.allSatisfy { $0.first?.isWhitespace != true })
        }
    }

    // MARK: config.json and options

    /// A minimal text model configuration, written to a file, with `decoder` members `decoder`.
    static func writeConfiguration(decoder: String, in directory: URL) throws -> URL {
        let json = """
        {"formatVersion": 1, "identifier": "xx", "kind": "text",
         "features": {"scheme": "resampled-v2", "stepsPerLineHeight": 4},
         "network": {"weights": "w.safetensors", "inputDim": 4, "hidden": 2, "layers": 1, "numClasses": 4,
                     "reduceAfter": 0, "head": "ctc"},
         "labels": ["a", " ", "b"], "blankIndex": 0,
         "decoder": {"lmWeight": 0.8, "insertionBonus": 0.5, "beamWidth": 8\(decoder)}}
        """
        let url = directory.appendingPathComponent("config.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("context-separator-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("config.json: decoder.contextSeparator is read; absent is a space", arguments: [
        (#", "contextSeparator": """#, ""), (#", "contextSeparator": " ""#, " "), (#", "contextSeparator": "\u3000""#, "\u{3000}"),
        (#", "contextSeparator": "    ""#, "    "), ("", " "),
    ])
    func readsTheSeparator(_ member: String, _ expected: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ModelConfiguration.load(from: Self.writeConfiguration(decoder: member, in: directory))
        #expect(configuration.decoder?.contextSeparator == (member.isEmpty ? nil : expected))
        #expect(configuration.contextSeparator() == expected)
    }

    @Test("config.json: a contextSeparator that is not a string, longer than 4 characters or not whitespace is a modelCorrupt error",
          arguments: [#"5"#, #"true"#, #"[" "]"#, #"{}"#, #""     ""#, #""-""#, #"" x""#])
    func rejectsABadSeparator(_ value: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Self.writeConfiguration(decoder: #", "contextSeparator": "# + value, in: directory)
        #expect {
            _ = try ModelConfiguration.load(from: url)
        } throws: { error in
            guard case .modelCorrupt(let file, let reason) = error as? DigitalInkError else { return false }
            return file == "config.json" && reason.contains("decoder.contextSeparator")
        }
    }

    @Test("DecoderSettings.validate: at most 4 whitespace characters, or empty")
    func validatesTheOption() throws {
        for ok in ["", " ", "\u{3000}", "    ", "\t"] {
            #expect(throws: Never.self) { try DecoderSettings(contextSeparator: ok).validate() }
        }
        for bad in ["     ", "x", " -", "、"] {
            #expect {
                try DecoderSettings(contextSeparator: bad).validate()
            } throws: { error in
                guard case .invalidOption(let name, _) = error as? DigitalInkError else { return false }
                return name == "contextSeparator"
            }
        }
    }

    @Test("a model directory whose config.json says \"\" loads and decodes without the leading space")
    func loadedModel() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("xx", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = try JSONSerialization.jsonObject(with: Data(contentsOf: shippedModelDirectory.appendingPathComponent("config.json"))) as! [String: Any]
        // The network file the shipped config names (a shared one: ../latn-…/weights.safetensors), copied beside it.
        var network = config["network"] as! [String: Any]
        try FileManager.default.copyItem(at: shippedModelDirectory.appendingPathComponent(network["weights"] as! String),
                                         to: directory.appendingPathComponent("weights.safetensors"))
        network["weights"] = "weights.safetensors"
        config["network"] = network
        try FileManager.default.copyItem(at: shippedModelDirectory.appendingPathComponent("lm.bin"), to: directory.appendingPathComponent("lm.bin"))
        var decoderObject = config["decoder"] as! [String: Any]
        decoderObject["contextSeparator"] = ""
        config["decoder"] = decoderObject
        try JSONSerialization.data(withJSONObject: config).write(to: directory.appendingPathComponent("config.json"))

        let unspaced = try LoadedModel(directory: directory)
        #expect(unspaced.configuration.decoder?.contextSeparator == "")
        let candidates = texts(unspaced.decoder, "world", preContext: "hello")
        #expect(candidates.first == "world")
        #expect(candidates.allSatisfy { !$0.hasPrefix(" ") })
        #expect(texts(model.decoder, "world", preContext: "hello").first == " world")
    }

    @Test("recognizePage with \"\": each line's pre-context is the line above's text with nothing after it")
    func pageJoinsLinesWithTheSeparator() async throws {
        let page = try #require(FixturePage.all.first { $0.variant == "plain" && $0.lines.count >= 3 })
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.decoder.contextSeparator = ""
        options.decoder.lineContinuation = 1  // every line after the line above only
        let recognizer = DigitalInkRecognizer(options: options)
        let result = try await recognizer.recognizePage(page.ink, context: RecognitionContext(preContext: "Note"))
        try #require(result.lines.count >= 2)
        var pre = "Note"
        var spacedDiffers = false
        for line in result.lines {
            let ink = Ink(strokes: line.strokeIndices.map { page.ink.strokes[$0] })
            let alone = try await recognizer.recognize(ink, context: RecognitionContext(preContext: pre))
            #expect(alone.candidates.map(\.text) == line.candidates.map(\.text))
            #expect(alone.candidates.map(\.score) == line.candidates.map(\.score))
            // (The test tells the separators apart: with a space after the line above, scores change.)
            if pre != "Note" {
                let spaced = try await recognizer.recognize(ink, context: RecognitionContext(preContext: pre + " "))
                spacedDiffers = spacedDiffers || spaced.candidates.map(\.score) != line.candidates.map(\.score)
            }
            if !line.text.isEmpty { pre = line.text }
        }
        #expect(spacedDiffers)
    }
}
