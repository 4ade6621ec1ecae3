import Foundation

/// The CTC loss of a label sequence and its gradient with respect to a network's logits and to a linear
/// output layer: the step that writer adaptation (issue 41) takes on the output layer. Numeric helper in a
/// namespace; internal engine type, the companion of ``CTCLikelihood``.
/// `Tests/DigitalInkTests/Fixtures/ctc-gradient.json` (written by `Training/inkrec_training/ctc_gradient_golden.py`
/// from PyTorch) pins it to `torch.nn.functional.ctc_loss` and autograd.
///
/// With T × C logits `x`, `y_t = softmax(x_t)`, labels `l_1 … l_L` and the extended sequence
/// `z = b l_1 b l_2 … l_L b` (`b` the blank, S = 2L + 1 states), the forward variables are ``CTCLikelihood``'s
///
///     α_0(0) = y_0(b), α_0(1) = y_0(l_1)
///     α_t(s) = y_t(z_s) · (α_{t-1}(s) + α_{t-1}(s-1) + [z_s ≠ b, z_s ≠ z_{s-2}] α_{t-1}(s-2))
///     P = α_{T-1}(S-1) + α_{T-1}(S-2),    loss = −ln P
///
/// and the backward variables (the mass of the frames after t, without `y_t`'s own factor):
///
///     β_{T-1}(S-1) = β_{T-1}(S-2) = 1, β_{T-1}(s) = 0 otherwise
///     β_t(s) = y_{t+1}(z_s) β_{t+1}(s) + y_{t+1}(z_{s+1}) β_{t+1}(s+1) + [z_{s+2} ≠ b, z_{s+2} ≠ z_s] y_{t+1}(z_{s+2}) β_{t+1}(s+2)
///
/// so that α_t(s) β_t(s) is the probability of the paths that are in state s at frame t and Σ_s α_t(s) β_t(s) = P
/// at every frame. With the occupation γ_t(k) = Σ_{s: z_s = k} α_t(s) β_t(s) / Σ_s α_t(s) β_t(s) (Graves et al.
/// 2006, §4.2), the gradient of the loss is
///
///     ∂loss/∂x_t(k) = y_t(k) − γ_t(k)          (T × C; each row sums to 0)
///
/// Every α_t and β_t is scaled to sum 1 (§4.1); the scales cancel in γ, and the loss is −(Σ_t ln c_t + ln(α̂_{T-1}(S-1)
/// + α̂_{T-1}(S-2))) with c_t the forward scales, as in ``CTCLikelihood``. All arithmetic is in Double.
///
/// What the scaling cannot do is what a log-space pass can: within one frame a state is kept only while its
/// α (or β) is above ~1e-308 (e^-708) of the frame's largest. Labels that unlikely under peaky outputs make the
/// forward pass lose the final states (e.g. 40 labels in 200 frames that each put the blank e^30 above every label,
/// a loss over 1000; with e^20, a loss of 703, it still works), and the functions return nil, as ``CTCLikelihood``
/// returns −infinity, where PyTorch's log-space pass still returns a loss.
@_spi(Engine) public enum CTCGradient {
    /// The CTC loss −ln P(`labels` | `logits`) and its gradient with respect to the logits.
    ///
    /// - Parameters:
    ///   - labels: the label sequence, L classes in `0..<C`, none equal to `blank`; may be empty (the all-blank path).
    ///   - logits: T × C unnormalized scores (the log-softmax is taken here, per row, in Double).
    ///   - blank: the blank class.
    /// - Returns: `loss` (≥ 0) and `gradient`, ∂loss/∂logits as T × C values row after row (`y_t(k) − γ_t(k)`,
    ///   each row summing to 0). Equal to PyTorch's
    ///   `F.ctc_loss(log_softmax(logits)[:, None], labels, [T], [L], blank, reduction="sum", zero_infinity=False)`
    ///   and its autograd gradient with respect to `logits`. `nil` where no path of T frames emits the labels (too few
    ///   frames for the labels and their repeats, a label outside the classes or equal to `blank`, `blank` outside
    ///   the classes), where a logit is not finite, or where the scaled variables underflow (see the type's
    ///   comment). T = 0 with no labels is the empty path: loss 0, empty gradient.
    ///
    /// Time O(T · (C + L)), memory O(T · (C + L)) (the scaled α of every frame is kept for the backward pass).
    public static func lossAndGradient(_ labels: [Int], logits: FeatureMatrix, blank: Int = 0)
        -> (loss: Double, gradient: [Float])?
    {
        guard let r = lossAndGradient(labels, logits: logits.values.map(Double.init), frames: logits.rows,
                                      classes: logits.columns, blank: blank)
        else { return nil }
        return (r.loss, r.gradient.map(Float.init))
    }

    /// The loss of "any one of several texts" from each one's CTC loss L_i: −ln Σ_i e^(−L_i) (computed from the
    /// smallest, so that no e^(−L) underflows to 0), and the weight of each in its gradient, e^(−L_i) / Σ_j e^(−L_j)
    /// (each text's share of their total probability): ∂/∂x of the union is Σ_i weight_i · ∂L_i/∂x. One loss: itself,
    /// weight 1. Empty: nil.
    static func union(_ losses: [Double]) -> (loss: Double, weights: [Double])? {
        guard let best = losses.min() else { return nil }
        let e = losses.map { exp(best - $0) }
        let total = e.reduce(0, +)
        return (best - log(total), e.map { $0 / total })
    }

    /// The CTC loss of `labels` under a linear output layer, `logits = features · weightᵀ + bias`, and its gradient
    /// with respect to the layer's weight and bias: what one step of adapting the output layer needs.
    ///
    /// Shapes (row-major), with G = ∂loss/∂logits (T × C) from ``lossAndGradient(_:logits:blank:)``:
    ///
    ///     features  F : T × H            the inputs of the layer (the last hidden states), one row a frame
    ///     weight    W : C × H            bias b : C
    ///     logits    X = F · Wᵀ + 1 · bᵀ  : T × C,  X_t(c) = Σ_h F_t(h) W(c, h) + b(c)
    ///     ∂loss/∂W  = Gᵀ · F             : C × H,  Σ_t G_t(c) F_t(h)
    ///     ∂loss/∂b  = Gᵀ · 1             : C,      Σ_t G_t(c)
    ///
    /// The logits and the sums are computed in Double (the logits are not rounded to Float in between).
    ///
    /// - Returns: `loss`, `weightGradient` (C × H) and `biasGradient` (C); `nil` in the cases of
    ///   ``lossAndGradient(_:logits:blank:)``. C is `bias.count`; `weight` must hold C × H values.
    ///
    /// Time O(T · C · H + T · L), memory O(T · (C + L)).
    public static func outputLayerGradient(features: FeatureMatrix, weight: [Float], bias: [Float], labels: [Int],
                                           blank: Int = 0)
        -> (loss: Double, weightGradient: [Float], biasGradient: [Float])?
    {
        let T = features.rows, H = features.columns, C = bias.count
        precondition(weight.count == C * H, "CTCGradient: \(weight.count) weights for \(C) classes × \(H) features")
        // X (T × C) = F (T × H) · Wᵀ (H × C) + b.
        var logits = [Double](repeating: 0, count: T * C)
        for t in 0..<T {
            for c in 0..<C {
                var x = Double(bias[c])
                for h in 0..<H { x += Double(features.values[t * H + h]) * Double(weight[c * H + h]) }
                logits[t * C + c] = x
            }
        }
        guard let r = lossAndGradient(labels, logits: logits, frames: T, classes: C, blank: blank) else { return nil }
        // ∂W (C × H) = Gᵀ (C × T) · F (T × H); ∂b (C) = Σ_t G_t.
        var dW = [Double](repeating: 0, count: C * H)
        var db = [Double](repeating: 0, count: C)
        for t in 0..<T {
            for c in 0..<C {
                let g = r.gradient[t * C + c]
                db[c] += g
                for h in 0..<H { dW[c * H + h] += g * Double(features.values[t * H + h]) }
            }
        }
        return (r.loss, dW.map(Float.init), db.map(Float.init))
    }

    /// ``lossAndGradient(_:logits:blank:)`` on T × C logits in Double (row after row), with the gradient in Double.
    static func lossAndGradient(_ labels: [Int], logits: [Double], frames T: Int, classes C: Int, blank: Int)
        -> (loss: Double, gradient: [Double])?
    {
        precondition(T >= 0 && C >= 0 && logits.count == T * C, "CTCGradient: \(logits.count) logits for \(T) × \(C)")
        let L = labels.count
        guard T > 0, (0..<C).contains(blank), labels.allSatisfy({ (0..<C).contains($0) && $0 != blank }) else {
            return L == 0 && T == 0 ? (0, []) : nil
        }
        guard logits.allSatisfy(\.isFinite) else { return nil }
        let S = 2 * L + 1
        var symbol = [Int](repeating: blank, count: S)
        for (i, l) in labels.enumerated() { symbol[2 * i + 1] = l }
        // 1 where state s may be entered from s - 2 (a label that differs from the label before it).
        var skip = [Double](repeating: 0, count: S)
        for s in stride(from: 3, to: S, by: 2) where labels[s / 2] != labels[s / 2 - 1] { skip[s] = 1 }

        // y = softmax of every row (T × C), the max taken out before the exponentials.
        var y = [Double](repeating: 0, count: T * C)
        for t in 0..<T {
            let row = t * C
            var m = -Double.infinity
            for k in 0..<C { m = max(m, logits[row + k]) }
            var sum = 0.0
            for k in 0..<C { sum += exp(logits[row + k] - m) }
            let logZ = m + log(sum)
            for k in 0..<C { y[row + k] = exp(logits[row + k] - logZ) }
        }

        // Forward: α̂_t (T × S), each frame scaled to sum 1; logScale = Σ_t ln c_t.
        var alpha = [Double](repeating: 0, count: T * S)
        var logScale = 0.0
        for t in 0..<T {
            let a = t * S, row = t * C
            if t == 0 {
                alpha[0] = y[blank]
                if S > 1 { alpha[1] = y[labels[0]] }
            } else {
                let p = a - S
                for s in 0..<S {
                    var v = alpha[p + s]
                    if s >= 1 { v += alpha[p + s - 1] }
                    if s >= 2 { v += skip[s] * alpha[p + s - 2] }
                    alpha[a + s] = v * y[row + symbol[s]]
                }
            }
            var total = 0.0
            for s in 0..<S { total += alpha[a + s] }
            guard total > 0, total.isFinite else { return nil }
            for s in 0..<S { alpha[a + s] /= total }
            logScale += log(total)
        }
        let last = (T - 1) * S
        let end = alpha[last + S - 1] + (S > 1 ? alpha[last + S - 2] : 0)
        guard end > 0 else { return nil }
        let loss = -(logScale + log(end))

        // Backward: β̂_t (S), each frame scaled to sum 1, and the gradient y_t − γ_t row by row.
        var gradient = y
        var beta = [Double](repeating: 0, count: S)
        var next = beta
        var emit = beta  // y_{t+1}(z_s)
        var occupancy = beta
        beta[S - 1] = 1
        if S > 1 { beta[S - 2] = 1 }
        for t in stride(from: T - 1, through: 0, by: -1) {
            if t < T - 1 {
                let row = (t + 1) * C
                for s in 0..<S { emit[s] = y[row + symbol[s]] * beta[s] }
                var total = 0.0
                for s in 0..<S {
                    var v = emit[s]
                    if s + 1 < S { v += emit[s + 1] }
                    if s + 2 < S { v += skip[s + 2] * emit[s + 2] }
                    next[s] = v
                    total += v
                }
                guard total > 0, total.isFinite else { return nil }
                for s in 0..<S { beta[s] = next[s] / total }
            }
            let a = t * S
            var z = 0.0
            for s in 0..<S {
                occupancy[s] = alpha[a + s] * beta[s]
                z += occupancy[s]
            }
            guard z > 0, z.isFinite else { return nil }
            let row = t * C
            for s in 0..<S { gradient[row + symbol[s]] -= occupancy[s] / z }
        }
        return (loss, gradient)
    }
}
