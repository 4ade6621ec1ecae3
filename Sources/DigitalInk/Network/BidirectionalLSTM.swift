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
/// How it is computed (see Benchmarks/README.md for the measurements behind each choice):
/// - the input projections of both directions and all T steps are one matrix multiply
///   (T × in times in × 8H: `W_ih` of both directions stacked);
/// - the two directions advance in the same time loop (forward at t, backward at T−1−t), each step one
///   recurrent matrix-vector product per direction, with `W_hh` stored transposed (H × 4H) so that
///   BLAS runs its column-major kernel over long contiguous columns;
/// - the gate non-linearities are computed 8 units at a time with a rational tanh (the approximation
///   Eigen and ONNX Runtime use, |error| < 1e-6) and σ(x) = ½ tanh(x/2) + ½, instead of one libm
///   call per value.
/// The output row t is `[h_fwd(t), h_bwd(t)]` (T × 2H).
struct BidirectionalLSTM: Sendable {
    struct Direction: Sendable {
        var inputWeights: [Float]      // 4H × in
        var recurrentWeights: [Float]  // 4H × H
        var bias: [Float]              // 4H
    }

    let inputSize: Int
    let hiddenSize: Int
    /// `W_ih` of both directions, transposed: in × 8H (columns 0..<4H forward, 4H..<8H backward).
    /// Stored so because BLAS multiplies X · Wᵗ faster from this layout than from PyTorch's 8H × in
    /// (it does not repack a transposed operand on every call).
    let inputWeights: [Float]
    /// Bias of the forward direction, then of the backward one: 8H.
    let bias: [Float]
    /// `W_hh` transposed, H × 4H, per direction.
    let recurrentForward: [Float]
    let recurrentBackward: [Float]

    var outputSize: Int { 2 * hiddenSize }

    /// Scratch floats `run` needs for T steps (the gates of both directions).
    static func gateCount(steps T: Int, hiddenSize H: Int) -> Int { T * 8 * H }

    init(inputSize: Int, hiddenSize H: Int, forward: Direction, backward: Direction) {
        self.inputSize = inputSize
        self.hiddenSize = H
        inputWeights = _transposed(forward.inputWeights + backward.inputWeights, rows: 8 * H, columns: inputSize)
        bias = forward.bias + backward.bias
        recurrentForward = _transposed(forward.recurrentWeights, rows: 4 * H, columns: H)
        recurrentBackward = _transposed(backward.recurrentWeights, rows: 4 * H, columns: H)
    }

    /// Runs both directions over `input` (T × inputSize) and writes T × 2H values to `output`.
    /// `gates` is scratch space of at least `gateCount(steps: T, hiddenSize: H)` floats.
    /// Allocates only the 4H floats of state. Complexity: O(T · 8H · (in + H)).
    func run(input: UnsafePointer<Float>, steps T: Int, output: UnsafeMutablePointer<Float>,
             gates: UnsafeMutablePointer<Float>) {
        guard T > 0 else { return }
        let H = hiddenSize, G = 4 * H, G2 = 8 * H, outStride = 2 * H
        // Bias in every row, then gates += X · W_ihᵀ for all steps and both directions at once.
        bias.withUnsafeBufferPointer { b in
            for t in 0..<T { (gates + t * G2).update(from: b.baseAddress!, count: G2) }
        }
        inputWeights.withUnsafeBufferPointer { w in
            _BLAS.gemm(m: T, n: G2, k: inputSize, a: input, lda: inputSize, b: w.baseAddress!, ldb: G2,
                       beta: 1, c: gates, ldc: G2)
        }
        // State: h forward, c forward, h backward, c backward.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * H) { state in
            let s = state.baseAddress!
            s.initialize(repeating: 0, count: 4 * H)
            recurrentForward.withUnsafeBufferPointer { wf in
                recurrentBackward.withUnsafeBufferPointer { wb in
                    for step in 0..<T {
                        let tf = step, tb = T - 1 - step
                        let gf = gates + tf * G2, gb = gates + tb * G2 + G
                        if step > 0 {
                            _BLAS.gemvTransposed(rows: H, columns: G, a: wf.baseAddress!, x: s, y: gf)
                            _BLAS.gemvTransposed(rows: H, columns: G, a: wb.baseAddress!, x: s + 2 * H, y: gb)
                        }
                        _lstmCell(gf, h: s, c: s + H, out: output + tf * outStride, count: H)
                        _lstmCell(gb, h: s + 2 * H, c: s + 3 * H, out: output + tb * outStride + H, count: H)
                    }
                }
            }
        }
    }
}

/// The transpose of a row-major `rows × columns` matrix (`columns × rows`).
func _transposed(_ m: [Float], rows: Int, columns: Int) -> [Float] {
    precondition(m.count == rows * columns)
    var t = [Float](repeating: 0, count: m.count)
    for r in 0..<rows { for c in 0..<columns { t[c * rows + r] = m[r * columns + c] } }
    return t
}

/// One LSTM cell update of `count` units: gates `g` (i, f, c̃, o blocks of `count`), state `h`, `c`
/// updated in place, `h` also written to `out`. 8 units at a time, a scalar tail for the rest.
@inline(__always)
func _lstmCell(_ g: UnsafeMutablePointer<Float>, h: UnsafeMutablePointer<Float>, c: UnsafeMutablePointer<Float>,
               out: UnsafeMutablePointer<Float>, count H: Int) {
    var j = 0
    while j + 8 <= H {
        let i = _sigmoid8(_load8(g + j)), f = _sigmoid8(_load8(g + H + j))
        let cc = _tanh8(_load8(g + 2 * H + j)), o = _sigmoid8(_load8(g + 3 * H + j))
        let cNew = f * _load8(c + j) + i * cc
        let hNew = o * _tanh8(cNew)
        _store8(cNew, c + j)
        _store8(hNew, h + j)
        _store8(hNew, out + j)
        j += 8
    }
    while j < H {
        let i = _sigmoid(g[j]), f = _sigmoid(g[H + j]), cc = _tanh(g[2 * H + j]), o = _sigmoid(g[3 * H + j])
        c[j] = f * c[j] + i * cc
        h[j] = o * _tanh(c[j])
        out[j] = h[j]
        j += 1
    }
}

@inline(__always)
func _load8(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func _store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}

/// tanh by the rational approximation of Eigen and ONNX Runtime's MLAS (odd degree 13 over even
/// degree 6), the input clamped to ±9; |error| < 1e-6 over all floats. Branch- and call-free, so the
/// compiler keeps it in vector registers.
@inline(__always)
func _tanh8(_ x0: SIMD8<Float>) -> SIMD8<Float> {
    // (Not `clamped(lowerBound:upperBound:)`: it calls the generic pointwiseMin/Max, not inlined.)
    var x = x0
    x.replace(with: 9, where: x .> 9)
    x.replace(with: -9, where: x .< -9)
    let x2 = x * x
    var p = SIMD8<Float>(repeating: -2.76076847742355e-16)
    p = p * x2 + 2.00018790482477e-13
    p = p * x2 - 8.60467152213735e-11
    p = p * x2 + 5.12229709037114e-08
    p = p * x2 + 1.48572235717979e-05
    p = p * x2 + 6.37261928875436e-04
    p = p * x2 + 4.89352455891786e-03
    p = p * x
    var q = SIMD8<Float>(repeating: 1.19825839466702e-06)
    q = q * x2 + 1.18534705686654e-04
    q = q * x2 + 2.26843463243900e-03
    q = q * x2 + 4.89352518554385e-03
    return p / q
}

/// σ(x) = ½ tanh(x/2) + ½.
@inline(__always)
func _sigmoid8(_ x: SIMD8<Float>) -> SIMD8<Float> { 0.5 * _tanh8(0.5 * x) + 0.5 }

/// The scalar forms, computed the same way as the vector ones (so that every unit gets the same values).
@inline(__always)
func _tanh(_ x: Float) -> Float { _tanh8(SIMD8(repeating: x))[0] }

@inline(__always)
func _sigmoid(_ x: Float) -> Float { 0.5 * _tanh(0.5 * x) + 0.5 }
