import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Character n-gram model reads lm.bin exactly as the Python builder wrote it")
struct LanguageModelTests {
    @Test("golden queries within 1e-4")
    func golden() throws {
        let g = try Fixtures.json("lm-golden.json")
        let lm = try CharacterNgramModel(contentsOf: Fixtures.url(g["file"] as! String))
        #expect(lm.order == g["order"] as! Int)
        #expect(lm.symbolCount == g["symbols"] as! Int)
        let queries = g["queries"] as! [[String: Any]]
        #expect(queries.count >= 20)
        for q in queries {
            let ctx = (q["context"] as! [NSNumber]).map(\.intValue)
            let c = (q["char"] as! NSNumber).intValue
            let got = lm.score(c, after: lm.state(afterSymbols: ctx)).logProbability
            let want = (q["logProb"] as! NSNumber).floatValue
            #expect(abs(got - want) < 1e-4, "context \(q["contextText"]!) char \(q["charText"]!)")
        }
    }

    @Test("text scores from a pre-context match")
    func scoreText() throws {
        let g = try Fixtures.json("lm-golden.json")
        let lm = try CharacterNgramModel(contentsOf: Fixtures.url(g["file"] as! String))
        // Characters are the shared Latin character set: printable ASCII first, so id = scalar - 31.
        func ids(_ s: String) -> [Int] { s.unicodeScalars.map { Int($0.value) - 31 } }
        for case let item as [String: Any] in g["scoreText"] as! [Any] {
            let text = item["text"] as! String, pre = item["preContext"] as! String
            var state = lm.startState(preContext: ids(String(pre.suffix(RecognitionContext.maxPreContextLength))))
            var total: Float = 0
            for c in ids(text) {
                let r = lm.score(c, after: state)
                total += r.logProbability
                state = r.next
            }
            #expect(abs(total - (item["logProb"] as! NSNumber).floatValue) < 1e-3, "\(text) after \(pre)")
        }
    }

    @Test("every distribution sums to one")
    func normalized() throws {
        let lm = try CharacterNgramModel(contentsOf: Fixtures.url("lm-small.bin"))
        for ctx in [[0], [0, 85, 75], [0, 85, 75, 72, 1], [12, 12, 12]] {
            let s = lm.state(afterSymbols: ctx)
            let total = (1..<lm.symbolCount).reduce(Float(0)) { $0 + expf(lm.score($1, after: s).logProbability) }
            #expect(abs(total - 1) < 1e-3, "context \(ctx)")
        }
    }
}
