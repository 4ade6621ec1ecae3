import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// INKLM2 files with thousands of symbols (the CJK LMs of `Training/build_cjk_lm.py`): 2-byte symbols and
/// 13-bit keys. `lm2-cjk.bin` is a small zh-Hant LM with the full zh-Hant alphabet; `lm2-cjk-golden.json`
/// lists what the Python writer computes for it (`python3 Training/build_cjk_lm.py --golden
/// Tests/DigitalInkTests/Fixtures`).
@Suite("CJK language models: thousands of symbols read and bind as the Python writer says")
struct CJKLanguageModelTests {
    static func golden() throws -> [String: Any] { try Fixtures.json("lm2-cjk-golden.json") }

    static func bound(_ g: [String: Any]) throws -> CharacterNgramModel {
        try CharacterNgramModel(contentsOf: Fixtures.url(g["file"] as! String)).bound(toLabels: g["labels"] as! [String])
    }

    @Test("header and alphabet: more than 4,096 symbols, Traditional characters, no Simplified ones")
    func header() throws {
        let g = try Self.golden()
        let lm = try CharacterNgramModel(contentsOf: Fixtures.url(g["file"] as! String))
        #expect(lm.symbolCount == g["symbols"] as! Int)
        #expect(lm.symbolCount > 4096)
        #expect(lm.order == g["order"] as! Int)
        #expect(abs(lm.unknownLogProbability - (g["unknownLogProb"] as! NSNumber).floatValue) < 1e-6)
        let alphabet = Set(try #require(lm.alphabet))
        #expect(alphabet.count == lm.symbolCount - 1)
        for c in g["alphabetHas"] as! [String] { #expect(alphabet.contains(c), "\(c)") }
        for c in g["alphabetLacks"] as! [String] { #expect(!alphabet.contains(c), "\(c)") }
    }

    @Test("golden queries over class ids within 1e-4; unknown labels score the unknown log-probability")
    func queries() throws {
        let g = try Self.golden()
        let lm = try Self.bound(g)
        let queries = g["queries"] as! [[String: Any]]
        #expect(queries.count >= 20)
        for q in queries {
            let ctx = (q["context"] as! [NSNumber]).map(\.intValue)
            let state = (q["bos"] as! Bool) ? lm.startState(preContext: ctx) : lm.state(afterSymbols: ctx)
            let got = lm.score((q["char"] as! NSNumber).intValue, after: state).logProbability
            #expect(abs(got - (q["logProb"] as! NSNumber).floatValue) < 1e-4, "\(q["contextText"]!) → \(q["charText"]!)")
            if !(q["known"] as! Bool) { #expect(got == lm.unknownLogProbability) }
        }
        let labels = g["labels"] as! [String]
        #expect(lm.knownLabelCount(labels) < labels.count)
    }

    @Test("text scores from a pre-context match")
    func scoreText() throws {
        let g = try Self.golden()
        let lm = try Self.bound(g)
        var classOf: [Character: Int] = [:]
        for (i, l) in (g["labels"] as! [String]).enumerated() { classOf[Character(l)] = i + 1 }
        for case let item as [String: Any] in g["scoreText"] as! [Any] {
            let text = item["text"] as! String, pre = item["preContext"] as! String
            var state = lm.startState(preContext: pre.suffix(RecognitionContext.maxPreContextLength).compactMap { classOf[$0] })
            var total: Float = 0
            for c in text.compactMap({ classOf[$0] }) {
                let r = lm.score(c, after: state)
                total += r.logProbability
                state = r.next
            }
            #expect(abs(total - (item["logProb"] as! NSNumber).floatValue) < 1e-3, "\(text) after \(pre)")
        }
    }
}
