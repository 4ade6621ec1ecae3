import Foundation

/// The CTC log-likelihood of a label sequence under a network's output: log P(labels | frames), the
/// sum over every path that collapses to the labels. Numeric helper in a namespace; internal engine
/// type. `Training/inkrec_training/views.py` has the same function (and `torch.ctc_loss` is its
/// negative); `Tests/DigitalInkTests/Fixtures/ctc-likelihood.json` pins the three together.
///
/// With labels `l_1 … l_L` the paths run over the extended sequence `z = b l_1 b l_2 … l_L b` (`b`
/// the blank, S = 2L + 1 states). The forward variables over T frames of probabilities `y_t`:
///
///     α_0(0) = y_0(b), α_0(1) = y_0(l_1)
///     α_t(s) = y_t(z_s) · (α_{t-1}(s) + α_{t-1}(s-1) + [z_s ≠ b, z_s ≠ z_{s-2}] α_{t-1}(s-2))
///     P = α_{T-1}(S-1) + α_{T-1}(S-2)
///
/// computed in Double with the α of each frame scaled to sum 1 and the logs of the scales summed
/// (Graves 2006, §4.1), so that no cell needs a logarithm. Time O(T · L), memory O(L).
@_spi(Engine) public enum CTCLikelihood {
    /// log P(`labels` | `logProbs`) (T × C log-probabilities); `-infinity` when no path of T frames
    /// emits the labels (too few frames, or a label outside the classes or equal to `blank`). An
    /// empty label sequence is the all-blank path.
    public static func logLikelihood(_ labels: [Int], logProbs: FeatureMatrix, blank: Int = 0) -> Double {
        let T = logProbs.rows, C = logProbs.columns, L = labels.count
        guard T > 0, (0..<C).contains(blank), labels.allSatisfy({ (0..<C).contains($0) && $0 != blank }) else {
            return L == 0 && T == 0 ? 0 : -.infinity
        }
        let S = 2 * L + 1
        var symbol = [Int](repeating: blank, count: S)
        for (i, l) in labels.enumerated() { symbol[2 * i + 1] = l }
        // 1 where state s may be entered from s - 2 (a label that differs from the label before it).
        var skip = [Double](repeating: 0, count: S)
        for s in stride(from: 3, to: S, by: 2) where labels[s / 2] != labels[s / 2 - 1] { skip[s] = 1 }
        var alpha = [Double](repeating: 0, count: S)
        var next = alpha
        var logScale = 0.0
        return logProbs.values.withUnsafeBufferPointer { values -> Double in
            alpha[0] = exp(Double(values[blank]))
            if S > 1 { alpha[1] = exp(Double(values[labels[0]])) }
            for t in 0..<T {
                if t > 0 {
                    let row = t * C
                    let yBlank = exp(Double(values[row + blank]))
                    next[0] = alpha[0] * yBlank
                    for s in 1..<S {
                        var a = alpha[s] + alpha[s - 1]
                        if s >= 2 { a += skip[s] * alpha[s - 2] }
                        // Blank states share one exponential; a label's is only taken where it matters.
                        next[s] = a == 0 ? 0 : a * (s & 1 == 0 ? yBlank : exp(Double(values[row + symbol[s]])))
                    }
                    swap(&alpha, &next)
                }
                var total = 0.0
                for s in 0..<S { total += alpha[s] }
                guard total > 0, total.isFinite else { return -.infinity }
                for s in 0..<S { alpha[s] /= total }
                logScale += log(total)
            }
            let end = alpha[S - 1] + (S > 1 ? alpha[S - 2] : 0)
            return end > 0 ? logScale + log(end) : -.infinity
        }
    }
}
