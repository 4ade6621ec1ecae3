import Foundation

/// A page line's contexts: the line is read under each of several contexts, each with its prior
/// probability (it goes on from the line above, or starts afresh), and the readings are merged per
/// text: `log Σ_c prior_c · exp(score_c)` (a text that one context's beam did not keep counts as
/// impossible there). Internal.
enum ContextMixture {
    /// The hypotheses `hypotheses` gives under each of `contexts` (priors above 0), merged per text,
    /// best first. Hypotheses of non-finite score are left out.
    static func merged(_ contexts: [(context: RecognitionContext, prior: Float)],
                       hypotheses: (RecognitionContext) -> [TextHypothesis]) -> [TextHypothesis] {
        var merged: [String: TextHypothesis] = [:]
        for (context, prior) in contexts {
            let logPrior = log(prior)
            for h in hypotheses(context) where h.score.isFinite {
                let s = h.score + logPrior
                if let old = merged[h.text] {
                    let (a, b) = (max(old.score, s), min(old.score, s))
                    merged[h.text] = TextHypothesis(text: h.text, score: a + log1p(expf(b - a)), symbols: h.symbols)
                } else {
                    merged[h.text] = TextHypothesis(text: h.text, score: s, symbols: h.symbols)
                }
            }
        }
        return merged.values.sorted(by: TextHypothesis.isRankedBefore)
    }
}
