import Foundation

/// One bidirectional LSTM layer with PyTorch's parameter layout.
///
/// Per direction: `W_ih` (4H × in), `W_hh` (4H × H), bias `b_ih + b_hh` (4H), gates in the order
/// input, forget, cell, output:
///
///     g_t = W_ih x_t + W_hh h_{t-1} + b
///     i, f, o = σ(g_i), σ(g_f), σ(g_o);  c̃ = tanh(g_c)
///     c_t = f ⊙ c_{t-1} + i ⊙ c̃;  h_t = o ⊙ tanh(c_t)
///
/// The input projection of all T steps is one matrix multiply (T × in times in × 4H); the loop only
/// does the recurrent matrix-vector product and the element-wise gate math. The output row t is
/// `[h_fwd(t), h_bwd(t)]` (T × 2H).
struct BidirectionalLSTM: Sendable {
    struct Direction: Sendable {
        var inputWeights: [Float]      // 4H × in
        var recurrentWeights: [Float]  // 4H × H
        var bias: [Float]              // 4H
    }

    let inputSize: Int
    let hiddenSize: Int
    let forward: Direction
    let backward: Direction

    var outputSize: Int { 2 * hiddenSize }

    /// Runs both directions over `input` (T × inputSize) and writes T × 2H values to `output`.
    /// `gates` is scratch space of at least T × 4H floats. Allocates only H-sized state per direction.
    /// Complexity: O(T · 4H · (in + H)).
    func run(input: UnsafePointer<Float>, steps T: Int, output: UnsafeMutablePointer<Float>,
             gates: UnsafeMutablePointer<Float>) {
        guard T > 0 else { return }
        runDirection(forward, reverse: false, input: input, steps: T, output: output, gates: gates)
        runDirection(backward, reverse: true, input: input, steps: T, output: output + hiddenSize, gates: gates)
    }

    private func runDirection(_ d: Direction, reverse: Bool, input: UnsafePointer<Float>, steps T: Int,
                              output: UnsafeMutablePointer<Float>, gates: UnsafeMutablePointer<Float>) {
        let H = hiddenSize, G = 4 * hiddenSize, outStride = 2 * hiddenSize
        // Bias in every row, then gates += X · W_ihᵀ for all steps at once.
        d.bias.withUnsafeBufferPointer { b in
            for t in 0..<T { (gates + t * G).update(from: b.baseAddress!, count: G) }
        }
        d.inputWeights.withUnsafeBufferPointer { w in
            _BLAS.gemmTransB(m: T, n: G, k: inputSize, a: input, lda: inputSize, b: w.baseAddress!, ldb: inputSize,
                             beta: 1, c: gates, ldc: G)
        }
        var h = [Float](repeating: 0, count: H)
        var c = [Float](repeating: 0, count: H)
        d.recurrentWeights.withUnsafeBufferPointer { whh in
            h.withUnsafeMutableBufferPointer { hp in
                c.withUnsafeMutableBufferPointer { cp in
                    let hb = hp.baseAddress!, cb = cp.baseAddress!
                    for step in 0..<T {
                        let t = reverse ? T - 1 - step : step
                        let g = gates + t * G
                        if step > 0 {
                            _BLAS.gemv(m: G, n: H, a: whh.baseAddress!, x: hb, beta: 1, y: g)
                        }
                        let out = output + t * outStride
                        for j in 0..<H {
                            let i = _sigmoid(g[j])
                            let f = _sigmoid(g[H + j])
                            let cc = tanhf(g[2 * H + j])
                            let o = _sigmoid(g[3 * H + j])
                            let cNew = f * cb[j] + i * cc
                            cb[j] = cNew
                            let hNew = o * tanhf(cNew)
                            hb[j] = hNew
                            out[j] = hNew
                        }
                    }
                }
            }
        }
    }
}

@inline(__always)
func _sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }
