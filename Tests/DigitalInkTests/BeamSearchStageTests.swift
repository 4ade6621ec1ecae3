import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The beam-search stage (``TextBeamSearch``): the search set up from the model's settings, the
/// options' overrides, the context and the hints.
@Suite("Line pipeline: the beam-search stage")
struct BeamSearchStageTests {
    let model: LoadedModel
    let output: FeatureMatrix
    init() throws {
        model = try StageFixture.model()
        output = StageFixture.frames(["a": 0.5, "e": 0.3, "o": 0.15], model: model)
    }

    func search(beamWidth: Int) -> TextBeamSearch {
        var configuration = model.configuration
        configuration.decoder?.beamWidth = beamWidth
        return TextBeamSearch(configuration: configuration, classLabels: model.classLabels,
                              symbolOfCharacter: model.symbolOfCharacter, languageModel: nil)
    }

    @Test("the beam's width of hypotheses, best first, each scored by its CTC likelihood")
    func widthAndScores() throws {
        let hypotheses = search(beamWidth: 2).hypotheses(for: output, context: RecognitionContext(),
                                                         options: StageFixture.options { $0.maxResultCount = 1 })
        #expect(hypotheses.map(\.text) == ["a", "e"])
        for h in hypotheses {
            #expect(h.symbols == h.text.map { model.symbolOfCharacter[$0]! })
            let likelihood = Float(CTCLikelihood.logLikelihood(h.symbols, logProbs: output))
            #expect(abs(h.score - likelihood) < 1e-3, "\(h.text): \(h.score) vs \(likelihood)")
        }
        // At least the results asked for, however narrow the beam.
        let three = search(beamWidth: 2).hypotheses(for: output, context: RecognitionContext(),
                                                    options: StageFixture.options { $0.maxResultCount = 3 })
        #expect(three.count >= 3)
        #expect(zip(three, three.dropFirst()).allSatisfy { TextHypothesis.isRankedBefore($0, $1) })
    }

    @Test("hints: allowed characters mask the classes; a strict vocabulary keeps only its entries")
    func hints() throws {
        let allowed = search(beamWidth: 4).hypotheses(for: output, context: RecognitionContext(),
                                                      options: StageFixture.options { $0.allowedCharacters = ["o"] })
        #expect(allowed.first?.text == "o")
        #expect(allowed.allSatisfy { $0.text.allSatisfy { $0 == "o" } })
        let vocabulary = try RecognitionVocabulary(["e"], strict: true)
        let strict = search(beamWidth: 4).hypotheses(for: output, context: RecognitionContext(),
                                                     options: StageFixture.options { $0.vocabulary = vocabulary })
        #expect(strict.map(\.text) == ["e"])
    }

    @Test("with the language model, a pre-context ending inside a line lets the text start with the separator")
    func leadingSeparator() throws {
        let search = TextBeamSearch(configuration: model.configuration, classLabels: model.classLabels,
                                    symbolOfCharacter: model.symbolOfCharacter, languageModel: model.languageModel)
        let options = StageFixture.options { $0.maxResultCount = 10 }
        let after = search.hypotheses(for: output, context: RecognitionContext(preContext: "hello"), options: options)
        // The separator costs nothing from the ink: " a" is among the best readings after "hello".
        #expect(after.prefix(3).contains { $0.text == " a" }, "\(after.prefix(3).map(\.text))")
        // After a space, or without the language model, a leading space would need ink of its own.
        let fresh = search.hypotheses(for: output, context: RecognitionContext(preContext: "hello "), options: options)
        #expect(fresh.prefix(3).allSatisfy { !$0.text.hasPrefix(" ") }, "\(fresh.prefix(3).map(\.text))")
        let withoutLM = search.hypotheses(for: output, context: RecognitionContext(preContext: "hello"),
                                          options: StageFixture.options { $0.maxResultCount = 10; $0.useLanguageModel = false })
        #expect(withoutLM.prefix(3).allSatisfy { !$0.text.hasPrefix(" ") }, "\(withoutLM.prefix(3).map(\.text))")
    }
}

/// A page line's contexts merged per text (``ContextMixture``).
@Suite("Line pipeline: a line read under two contexts")
struct ContextMixtureTests {
    static func h(_ text: String, _ score: Float) -> TextHypothesis { TextHypothesis(text: text, score: score, symbols: [text.count]) }

    @Test("a text's score is log Σ prior · exp(score); non-finite scores are left out; best first, ties by text")
    func merged() {
        let above = RecognitionContext(preContext: "line above ")
        let got = ContextMixture.merged([(above, 0.75), (RecognitionContext(), 0.25)]) { context in
            context.preContext.isEmpty
                ? [Self.h("x", -3), Self.h("z", -0.5), Self.h("w", -.infinity)]
                : [Self.h("x", -1), Self.h("y", -2), Self.h("v", -2 + log(0.75) - log(0.25) - 0.5)]
        }
        let want: [String: Float] = ["x": log(0.75 * exp(-1) + 0.25 * exp(-3)), "y": log(0.75) - 2,
                                     "z": log(0.25) - 0.5, "v": log(0.75) - 2 + log(0.75) - log(0.25) - 0.5]
        #expect(Set(got.map(\.text)) == Set(want.keys))
        for h in got { #expect(abs(h.score - want[h.text]!) < 1e-5, "\(h.text): \(h.score) vs \(want[h.text]!)") }
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.score >= $1.score })
        // "v" and "z" score alike: by text.
        #expect(got.map(\.text) == ["x", "v", "z", "y"])
    }

    @Test("one context of prior 1 keeps its scores")
    func one() {
        let got = ContextMixture.merged([(RecognitionContext(), 1)]) { _ in [Self.h("b", -2), Self.h("a", -1)] }
        #expect(got.map(\.text) == ["a", "b"])
        #expect(got.map(\.score) == [-1, -2])
    }
}
