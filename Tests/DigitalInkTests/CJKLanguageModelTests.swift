import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// INKLM2 files with thousands of symbols (the CJK LMs of `python3 -m inkrec_training cjk lm`): 2-byte symbols and
/// 13-bit keys. `lm2-cjk.bin` is a small zh-Hant LM with the full zh-Hant alphabet; `lm2-cjk-golden.json`
/// lists what the Python writer computes for it (`python3 -m inkrec_training cjk lm --golden
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
        LanguageModelGolden.checkQueries(lm, queries, file: g["file"] as! String)
        for q in queries where !(q["known"] as! Bool) {
            #expect(LanguageModelGolden.logProbability(lm, q) == lm.unknownLogProbability, "\(q["contextText"]!) → \(q["charText"]!)")
        }
        let labels = g["labels"] as! [String]
        #expect(lm.knownLabelCount(labels) < labels.count)
    }

    @Test("text scores from a pre-context match")
    func scoreText() throws {
        let g = try Self.golden()
        LanguageModelGolden.checkScoreText(try Self.bound(g), labels: g["labels"] as! [String], items: g["scoreText"] as! [Any],
                                           file: g["file"] as! String)
    }
}
