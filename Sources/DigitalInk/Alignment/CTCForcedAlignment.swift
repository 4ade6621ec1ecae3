/// The best CTC path of a given label sequence through a network's output: which frames emit which
/// label. Numeric helpers in a namespace; internal engine type.
///
/// With labels `l_1 … l_L` the path runs over the extended sequence `b l_1 b l_2 … l_L b` (`b` the
/// blank, 2L + 1 states). Viterbi over T frames (log-probabilities, T × C):
///
///     δ_0(0) = lp_0(b), δ_0(1) = lp_0(l_1)
///     δ_t(s) = lp_t(z_s) + max(δ_{t-1}(s), δ_{t-1}(s-1), δ_{t-1}(s-2) if z_s ≠ b and z_s ≠ z_{s-2})
///
/// The path ends in state 2L or 2L - 1. Time O(T · L), memory O(T · L) for the back-pointers (one
/// byte each).
@_spi(Engine) public enum CTCForcedAlignment {
    /// For each frame, the index (0..<L) of the label it emits, or -1 for a blank frame; nil when the
    /// labels cannot be aligned to the frames (more frames needed than there are).
    public static func align(_ labels: [Int], logProbs: FeatureMatrix, blank: Int = 0) -> [Int]? {
        let T = logProbs.rows, C = logProbs.columns, L = labels.count
        guard L > 0 else { return [Int](repeating: -1, count: T) }
        guard T > 0, labels.allSatisfy({ (0..<C).contains($0) && $0 != blank }) else { return nil }
        let S = 2 * L + 1
        // The class of each state.
        var symbol = [Int](repeating: blank, count: S)
        for (i, l) in labels.enumerated() { symbol[2 * i + 1] = l }
        // 0 where state s may be entered from s - 2 (a label that differs from the label before it),
        // -inf where not: added to δ(s - 2), so the loop below has no branch on it.
        var skipPenalty = [Float](repeating: -.infinity, count: S)
        for s in stride(from: 3, to: S, by: 2) where labels[s / 2] != labels[s / 2 - 1] { skipPenalty[s] = 0 }
        var delta = [Float](repeating: -.infinity, count: S)
        var next = delta
        // 0: stay, 1: from s-1, 2: from s-2; every entry the backtrace reads (t ≥ 1) is written below.
        var back = [UInt8](unsafeUninitializedCapacity: T * S) { _, n in n = T * S }
        logProbs.values.withUnsafeBufferPointer { values in
            symbol.withUnsafeBufferPointer { sym in
                skipPenalty.withUnsafeBufferPointer { skip in
                    back.withUnsafeMutableBufferPointer { bk in
                        delta[0] = values[blank]
                        delta[1] = values[labels[0]]
                        for t in 1..<T {
                            let row = t * C
                            delta.withUnsafeBufferPointer { d in
                                next.withUnsafeMutableBufferPointer { n in
                                    n[0] = d[0] + values[row + blank]
                                    bk[t * S] = 0
                                    var best = d[1], step: UInt8 = 0
                                    if d[0] > best { best = d[0]; step = 1 }
                                    n[1] = best + values[row + sym[1]]
                                    bk[t * S + 1] = step
                                    for s in 2..<S {
                                        var best = d[s], step: UInt8 = 0
                                        let b = d[s - 1], c = d[s - 2] + skip[s]
                                        if b > best { best = b; step = 1 }
                                        if c > best { best = c; step = 2 }
                                        n[s] = best + values[row + sym[s]]
                                        bk[t * S + s] = step
                                    }
                                }
                            }
                            swap(&delta, &next)
                        }
                    }
                }
            }
        }
        var s = delta[S - 1] >= delta[S - 2] ? S - 1 : S - 2
        guard delta[s] > -.infinity else { return nil }
        var path = [Int](repeating: -1, count: T)
        for t in stride(from: T - 1, through: 0, by: -1) {
            path[t] = s % 2 == 1 ? s / 2 : -1
            if t > 0 { s -= Int(back[t * S + s]) }
        }
        return s <= 1 ? path : nil
    }
}
