import Foundation
import Testing
@testable import DigitalInk

/// ``DigitalInkRecognizer/languageFit(of:)`` and ``DigitalInkRecognizer/suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)``:
/// which model of the same network a writer's confirmed texts fit.
@Suite("A writer's language from their confirmed texts")
struct WriterLanguageTests {
    static func recognizer(_ name: String) -> DigitalInkRecognizer {
        DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: Fixtures.modelsDirectory.appendingPathComponent(name)))
    }

    static let english = ["the weather is fine today", "could you send me the report", "thank you", "meeting at noon",
                          "groceries: milk, bread, apples", "call back tomorrow"]
    static let german = ["Das Wetter ist heute schön", "Kannst du mir den Bericht schicken", "Vielen Dank", "Grüße aus München",
                         "Ich weiß es nicht", "Wir fahren übermorgen nach Hause"]

    @Test("the fit counts each scored character and each text's end; characters the model cannot write are skipped")
    func fitCountsCharacters() async throws {
        let en = Self.recognizer("en-US")
        let fit = try await en.languageFit(of: ["hello", "", "a b"])
        #expect(fit.identifier == "en-US")
        #expect(fit.characters == 5 + 1 + 3 + 1)
        #expect(fit.natsPerCharacter.isFinite && fit.natsPerCharacter > 0)
        let skipped = try await en.languageFit(of: ["hello", "漢字"])
        #expect(skipped.characters == fit.characters - 4 && skipped.natsPerCharacter != fit.natsPerCharacter)
        let nothing = try await en.languageFit(of: ["漢字"])
        #expect(nothing.characters == 0 && nothing.natsPerCharacter == .infinity)
        // German text is less likely under the English LM than English text is, and the other way round.
        let de = Self.recognizer("de")
        #expect(try await en.languageFit(of: Self.german).natsPerCharacter > en.languageFit(of: Self.english).natsPerCharacter + 0.5)
        #expect(try await de.languageFit(of: Self.german).natsPerCharacter < en.languageFit(of: Self.german).natsPerCharacter - 1)
    }

    @Test("without a language model there is no fit: a typed error")
    func noLanguageModel() async throws {
        let off = Self.recognizer("en-US").withOptions { $0.useLanguageModel = false }
        await #expect(throws: DigitalInkError.self) { try await off.languageFit(of: Self.english) }
        let shapes = Self.recognizer("zxx-Zsym-x-shapes")
        await #expect(throws: DigitalInkError.self) { try await shapes.languageFit(of: Self.english) }
    }

    @Test("German texts read through en-US suggest de; English ones suggest nothing")
    func suggestsTheWritersLanguage() async throws {
        let en = Self.recognizer("en-US"), de = Self.recognizer("de"), fr = Self.recognizer("fr"), es = Self.recognizer("es")
        let found = try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [fr, de, es])
        #expect(found === de)
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.english, among: [fr, de, es]) == nil)
        // From de, the English texts suggest en-US.
        #expect(try await de.suggestedRecognizer(forConfirmedTexts: Self.english, among: [fr, en, es]) === en)
        // Too few characters, or a margin no language clears: nothing.
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: ["schön"], among: [de]) == nil)
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [de], margin: 50) == nil)
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [de], minimumCharacters: 10_000) == nil)
        await #expect(throws: DigitalInkError.self) {
            try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [de], margin: -1)
        }
        await #expect(throws: DigitalInkError.self) {
            try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [de], margin: .nan)
        }
    }

    @Test("a candidate on another network is skipped, even where its language model fits better")
    func otherNetworkSkipped() async throws {
        // A copy of de whose weights differ in one byte: the same German LM, another network (digest).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("writer-language-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Fixtures.modelsDirectory.appendingPathComponent("de")
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("config.json"))) as? [String: Any])
        var network = try #require(config["network"] as? [String: Any])
        var weights = try Data(contentsOf: source.appendingPathComponent(try #require(network["weights"] as? String)))
        weights[weights.count / 2] ^= 1  // inside the tensors (the header is the first few KB)
        try weights.write(to: dir.appendingPathComponent("weights.safetensors"))
        network["weights"] = "weights.safetensors"
        config["network"] = network
        try JSONSerialization.data(withJSONObject: config).write(to: dir.appendingPathComponent("config.json"))
        try FileManager.default.copyItem(at: source.appendingPathComponent("lm.bin"), to: dir.appendingPathComponent("lm.bin"))
        let copy = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
        #expect(try await copy.languageFit(of: Self.german).natsPerCharacter == Self.recognizer("de").languageFit(of: Self.german).natsPerCharacter)
        let en = Self.recognizer("en-US"), de = Self.recognizer("de")
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [copy]) == nil)
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [copy, de]) === de)
        // A model of another script's network (ru) is skipped the same way.
        #expect(try await en.suggestedRecognizer(forConfirmedTexts: Self.german, among: [Self.recognizer("ru")]) == nil)
    }
}
