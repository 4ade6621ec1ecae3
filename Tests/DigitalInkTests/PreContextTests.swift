import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Pre-context conditions the decoder (shipped language model)")
struct PreContextTests {
    let model: LoadedModel
    init() throws { model = try LoadedModel(directory: shippedModelDirectory) }

    /// Per-frame posteriors that spell `pattern`; a "?" frame is split evenly between `ambiguous`.
    func frames(_ pattern: String, ambiguous: [Character]) -> FeatureMatrix {
        let C = model.network.configuration.numClasses
        var m = FeatureMatrix(rows: 0, columns: C)
        func row(_ probs: [Int: Float]) {
            var r = [Float](repeating: logf(1e-6), count: C)
            for (k, p) in probs { r[k] = logf(p) }
            m.values += r
            m.rows += 1
        }
        for ch in pattern {
            if ch == "?" {
                row(Dictionary(uniqueKeysWithValues: ambiguous.map { (model.symbolOfCharacter[$0]!, 0.49) }))
            } else {
                row([model.symbolOfCharacter[ch]!: 0.98])
            }
            row([0: 0.98])  // blank between characters
        }
        return m
    }

    func best(_ lp: FeatureMatrix, preContext: String) -> String {
        let search = model.configuration.beamSearch(languageModel: true)
        let pre = preContext.compactMap { model.symbolOfCharacter[$0] }
        let space = preContext.last.map { !$0.isWhitespace } ?? false ? model.symbolOfCharacter[" "] : nil
        let h = search.decode(lp, languageModel: model.languageModel!, preContext: pre, leadingSymbol: space, maxResults: 1)
        return h[0].symbols.map { model.classLabels[$0] }.joined()
    }

    @Test("ink ambiguous between u and n reads \"ument\" after \"arg\" and \"nment\" after \"alig\"")
    func umentNment() {
        let lp = frames("?ment", ambiguous: ["u", "n"])
        #expect(best(lp, preContext: "arg") == "ument")
        #expect(best(lp, preContext: "alig") == "nment")
    }

    @Test("a leading space after a pre-context that ends a word, none without pre-context")
    func leadingSpaceFromLanguageModel() {
        let lp = frames("world", ambiguous: [])
        #expect(best(lp, preContext: "hello") == " world")
        #expect(best(lp, preContext: "") == "world")
        #expect(best(lp, preContext: "hello ") == "world")
    }
}
