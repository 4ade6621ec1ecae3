import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The checks of an INKLM2 golden file that `python3 -m inkrec_training latin lm --golden` and `build_cjk_lm.py --golden`
/// write: `queries` (one symbol's log-probability after a context of class ids) and `scoreText` (a text's
/// log-probability after a pre-context), computed by the Python writer for the model bound to `labels`.
enum LanguageModelGolden {
    /// Every query's log-probability within 1e-4.
    static func checkQueries(_ lm: CharacterNgramModel, _ queries: [[String: Any]], file: String) {
        for q in queries {
            let got = logProbability(lm, q)
            let want = (q["logProb"] as! NSNumber).floatValue
            #expect(abs(got - want) < 1e-4, "\(file): context \(q["contextText"]!) char \(q["charText"]!)")
        }
    }

    /// One query's log-probability from the engine.
    static func logProbability(_ lm: CharacterNgramModel, _ q: [String: Any]) -> Float {
        let ctx = (q["context"] as! [NSNumber]).map(\.intValue)
        let state = (q["bos"] as! Bool) ? lm.startState(preContext: ctx) : lm.state(afterSymbols: ctx)
        return lm.score((q["char"] as! NSNumber).intValue, after: state).logProbability
    }

    /// Every text's log-probability after its pre-context (its last ``RecognitionContext/maxPreContextLength``
    /// characters), characters outside `labels` skipped, within 1e-3.
    static func checkScoreText(_ lm: CharacterNgramModel, labels: [String], items: [Any], file: String) {
        var classOf: [Character: Int] = [:]
        for (i, l) in labels.enumerated() { classOf[Character(l)] = i + 1 }
        for case let item as [String: Any] in items {
            let text = item["text"] as! String, pre = item["preContext"] as! String
            var state = lm.startState(preContext: pre.suffix(RecognitionContext.maxPreContextLength).compactMap { classOf[$0] })
            var total: Float = 0
            for c in text.compactMap({ classOf[$0] }) {
                let r = lm.score(c, after: state)
                total += r.logProbability
                state = r.next
            }
            #expect(abs(total - (item["logProb"] as! NSNumber).floatValue) < 1e-3, "\(file): \(text) after \(pre)")
        }
    }
}
