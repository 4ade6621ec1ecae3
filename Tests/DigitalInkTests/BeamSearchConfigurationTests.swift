import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Decoder settings from config.json")
struct BeamSearchConfigurationTests {
    func configuration(decoder: String) throws -> ModelConfiguration {
        let json = """
        {"formatVersion": 1, "identifier": "xx", "kind": "text",
         "features": {"scheme": "resampled-v2", "stepsPerLineHeight": 4},
         "network": {"weights": "w.safetensors", "inputDim": 4, "hidden": 2, "layers": 1, "numClasses": 4,
                     "reduceAfter": 0, "head": "ctc"},
         "labels": ["a", " ", "b"], "blankIndex": 0\(decoder)}
        """
        return try JSONDecoder().decode(ModelConfiguration.self, from: Data(json.utf8))
    }

    @Test("the model's weights, the space as end symbol, and options that override them")
    func settings() throws {
        let c = try configuration(decoder: #", "decoder": {"lmWeight": 0.9, "insertionBonus": 2, "beamWidth": 32, "endWeight": 1.5}"#)
        let s = c.beamSearch(languageModel: true)
        #expect(s.beamWidth == 32 && s.lmWeight == 0.9 && s.insertionBonus == 2 && s.endWeight == 1.5)
        #expect(s.endSymbol == 2 && s.blank == 0)
        var options = DigitalInkRecognizerOptions(modelDirectory: URL(fileURLWithPath: "/nonexistent"))
        options.decoder.lmWeight = 0.3
        options.decoder.endWeight = 0
        options.decoder.beamWidth = 4
        let o = c.beamSearch(languageModel: true, options: options)
        #expect(o.beamWidth == 4 && o.lmWeight == 0.3 && o.insertionBonus == 2 && o.endWeight == 0)
    }

    @Test("without the language model every LM term is 0")
    func withoutLanguageModel() throws {
        let c = try configuration(decoder: #", "decoder": {"lmWeight": 0.9, "insertionBonus": 2, "beamWidth": 32, "endWeight": 1.5}"#)
        let s = c.beamSearch(languageModel: false)
        #expect(s.beamWidth == 32 && s.lmWeight == 0 && s.insertionBonus == 0 && s.endWeight == 0)
    }

    @Test("an older config.json without endWeight, or without a decoder, still loads with defaults")
    func defaults() throws {
        let old = try configuration(decoder: #", "decoder": {"lmWeight": 0.5, "insertionBonus": 1, "beamWidth": 8}"#)
        #expect(old.decoder?.endWeight == nil)
        #expect(old.beamSearch(languageModel: true).endWeight == 0)
        let none = try configuration(decoder: "")
        #expect(none.beamSearch(languageModel: true).beamWidth == 16)
        #expect(none.beamSearch(languageModel: true).lmWeight == 0)
    }
}
