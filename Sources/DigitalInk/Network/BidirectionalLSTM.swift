import _InkKernels
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
///   (T × in times in × 8H: `W_ih` of both directions stacked): BLAS `sgemm`, or on CPUs with
///   AVX-512F `ink_gemm_packed_avx512` over the weights packed at load time (``_ProjectionKernel``);
/// - the two directions advance in the same time loop (forward at t, backward at T−1−t), each step one
///   recurrent matrix-vector product per direction and the cell update;
/// - with the `avx2` kernel (x86-64 CPUs with AVX2 and FMA, see ``_LSTMKernel``) a step is one call of
///   `ink_lstm_step`: product and cell fused, over `W_hh` packed at load time in panels of 64 gates;
///   with `avx2f16` (when every `W_hh` weight is a half-precision value, as `python3 -m inkrec_training latin export english` rounds
///   them) `ink_lstm_step_f16`, the same over 16-bit weights in panels of 96: half the bytes to stream
///   from L2 per step, which bound the product;
/// - with the `portable` kernel the product is a BLAS `sgemv` over `W_hh` stored transposed (H × 4H),
///   so that BLAS runs its column-major kernel over long contiguous columns, and the gate
///   non-linearities are computed 8 units at a time in Swift SIMD;
/// - with 8-bit weights (``QuantizedDirection``) the products run in 8-bit kernels (``_Int8Kernel``:
///   AVX-512 VNNI, AVX2, NEON or portable C), all with the same integer sums;
/// - either way tanh is a rational approximation (the one Eigen and ONNX Runtime use, |error| < 1e-6)
///   and σ(x) = ½ tanh(x/2) + ½, instead of one libm call per value.
/// The output row t is `[h_fwd(t), h_bwd(t)]` (T × 2H).
struct BidirectionalLSTM: Sendable {
    struct Direction: Sendable {
        var inputWeights: [Float]      // 4H × in
        var recurrentWeights: [Float]  // 4H × H
        var bias: [Float]              // 4H
    }

    /// A direction's 8-bit weights (network precision `int8`): `W_hh` always, `W_ih` except in the
    /// first layer (`inputWeights` nil: `floatInputWeights` instead), each with a scale per row.
    struct QuantizedDirection: Sendable {
        var inputWeights: (values: [Int8], scale: [Float])?
        var floatInputWeights: [Float]
        var recurrentWeights: (values: [Int8], scale: [Float])
        var bias: [Float]
    }

    /// The 8-bit recurrent weights of both directions: `W_hh` (4H × H) and its row scale / 127, packed
    /// for `ink_lstm_step_q8_vnni` or (`packedPairs`) for `ink_lstm_step_q8_avx2` and
    /// `ink_lstm_step_q8_neon` when that kernel is used.
    struct Int8Recurrent: Sendable {
        var forward: [Int8]
        var backward: [Int8]
        var forwardScale: [Float]
        var backwardScale: [Float]
        var packed: (forward: (weights: [Int8], correction: [Int32]), backward: (weights: [Int8], correction: [Int32]))?
        var packedPairs: (forward: [Int8], backward: [Int8])?
        /// The kernel that runs the steps (`avx2` or `neon` with `packedPairs`).
        var kernel: _Int8Kernel
    }

    /// The input projection of both directions: float (`_AffineMap`) or 8-bit (`_QuantizedAffineMap`).
    enum Projection: Sendable {
        case float(_AffineMap)
        case int8(_QuantizedAffineMap)

        @inline(__always)
        func apply(_ input: UnsafePointer<Float>, rows m: Int, output: UnsafeMutablePointer<Float>) {
            switch self {
            case .float(let map): map.apply(input, rows: m, output: output)
            case .int8(let map): map.apply(input, rows: m, output: output)
            }
        }

        var kernel: _ProjectionKernel {
            switch self {
            case .float(let map): return map.kernel
            case .int8: return .avx512  // reported as the layer's float kernel would be; see `int8Kernel`
            }
        }
    }

    let inputSize: Int
    let hiddenSize: Int
    /// The input projection: `W_ih` of both directions, transposed, in × 8H (columns 0..<4H forward,
    /// 4H..<8H backward; stored so because BLAS multiplies X · Wᵗ faster from this layout than from
    /// PyTorch's 8H × in), and the biases b_ih + b_hh of the forward direction, then of the backward one.
    /// (8-bit: PyTorch's 8H × in layout, rows of both directions stacked.)
    let projection: Projection
    /// The 8-bit recurrent weights, when the network's precision is `int8`.
    let int8Recurrent: Int8Recurrent?
    /// `W_hh` transposed, H × 4H, per direction.
    let recurrentForward: [Float]
    let recurrentBackward: [Float]
    /// `W_hh` per direction packed for `ink_lstm_step` (4H · H each), when the `avx2` kernel is used.
    let packedRecurrent: (forward: [Float], backward: [Float])?
    /// The same in half precision for `ink_lstm_step_f16`, when the `avx2f16` kernel is used.
    let packedRecurrentHalf: (forward: [UInt16], backward: [UInt16])?

    /// The kernel that runs the input projection.
    var projectionKernel: _ProjectionKernel { projection.kernel }

    /// The kernel that runs the recurrent steps (8-bit layers: see ``int8Kernel``).
    var kernel: _LSTMKernel { packedRecurrentHalf != nil ? .avx2f16 : packedRecurrent != nil ? .avx2 : .portable }

    /// For an 8-bit layer, `"int8-vnni"`, `"int8-avx2"`, `"int8-neon"` or `"int8-portable"`; nil for a
    /// float one.
    var int8Kernel: String? { int8Recurrent.map { "int8-\($0.kernel.rawValue)" } }

    var outputSize: Int { 2 * hiddenSize }

    /// Scratch floats `run` needs for T steps (the gates of both directions).
    static func gateCount(steps T: Int, hiddenSize H: Int) -> Int { T * 8 * H }

    /// `kernel` is used where it is available, H is a multiple of 8 and (for `avx2f16`) every `W_hh`
    /// weight is a half-precision value; otherwise the next one (`avx2f16`, `avx2`, `portable`).
    /// `projection` likewise where available; otherwise `blas`.
    init(inputSize: Int, hiddenSize H: Int, forward: Direction, backward: Direction, kernel: _LSTMKernel = .fastest,
         projection: _ProjectionKernel = .fastest) {
        self.inputSize = inputSize
        self.hiddenSize = H
        self.int8Recurrent = nil
        self.projection = .float(_AffineMap(
            weights: _transposed(forward.inputWeights + backward.inputWeights, rows: 8 * H, columns: inputSize),
            inputs: inputSize, outputs: 8 * H, bias: forward.bias + backward.bias, kernel: projection))
        let wf = _transposed(forward.recurrentWeights, rows: 4 * H, columns: H)
        let wb = _transposed(backward.recurrentWeights, rows: 4 * H, columns: H)
        recurrentForward = wf
        recurrentBackward = wb
        var half: (forward: [UInt16], backward: [UInt16])? = nil
        var full: (forward: [Float], backward: [Float])? = nil
        if kernel != .portable, kernel.isAvailable, H % 8 == 0 {
            if kernel == .avx2f16, Self.isHalfExact(wf), Self.isHalfExact(wb) {
                half = (Self.packedHalf(wf, hiddenSize: H), Self.packedHalf(wb, hiddenSize: H))
            } else if _LSTMKernel.avx2.isAvailable {
                full = (Self.packed(wf, hiddenSize: H), Self.packed(wb, hiddenSize: H))
            }
        }
        packedRecurrentHalf = half
        packedRecurrent = full
    }

    /// An 8-bit layer. `int8` runs its products (for projection and steps alike) where the CPU has it
    /// and H is a multiple of 8, else the next one this CPU runs (``_Int8Kernel/usable``) or, for other
    /// H, the portable ones; a float first-layer projection runs with `projection`.
    init(inputSize: Int, hiddenSize H: Int, forward: QuantizedDirection, backward: QuantizedDirection, int8: _Int8Kernel,
         projection: _ProjectionKernel = .fastest) {
        self.inputSize = inputSize
        self.hiddenSize = H
        let kernel: _Int8Kernel = H % 8 == 0 ? int8.usable : .portable
        if let fi = forward.inputWeights, let bi = backward.inputWeights {
            self.projection = .int8(_QuantizedAffineMap(weights: fi.values + bi.values, weightScale: fi.scale + bi.scale,
                                                        inputs: inputSize, outputs: 8 * H, bias: forward.bias + backward.bias,
                                                        kernel: kernel))
        } else {
            self.projection = .float(_AffineMap(
                weights: _transposed(forward.floatInputWeights + backward.floatInputWeights, rows: 8 * H, columns: inputSize),
                inputs: inputSize, outputs: 8 * H, bias: forward.bias + backward.bias, kernel: projection))
        }
        let fr = forward.recurrentWeights, br = backward.recurrentWeights
        int8Recurrent = Int8Recurrent(
            forward: fr.values, backward: br.values,
            forwardScale: fr.scale.map { $0 / 127 }, backwardScale: br.scale.map { $0 / 127 },
            packed: kernel == .vnni ? (_Int8Kernels.pack(fr.values, outputs: 4 * H, inputs: H),
                                       _Int8Kernels.pack(br.values, outputs: 4 * H, inputs: H)) : nil,
            packedPairs: kernel == .avx2 || kernel == .neon ? (_Int8Kernels.packPairs(fr.values, outputs: 4 * H, inputs: H),
                                                               _Int8Kernels.packPairs(br.values, outputs: 4 * H, inputs: H)) : nil,
            kernel: kernel)
        recurrentForward = []
        recurrentBackward = []
        packedRecurrent = nil
        packedRecurrentHalf = nil
    }

    private static func isHalfExact(_ w: [Float]) -> Bool {
        w.withUnsafeBufferPointer { ink_floats_are_half_exact($0.baseAddress!, $0.count) != 0 }
    }

    /// `W_hh` transposed (H × 4H), packed by `ink_lstm_pack_recurrent`.
    private static func packed(_ transposed: [Float], hiddenSize H: Int) -> [Float] {
        var out = [Float](repeating: 0, count: Int(ink_lstm_packed_count(Int32(H))))
        transposed.withUnsafeBufferPointer { w in
            out.withUnsafeMutableBufferPointer { o in ink_lstm_pack_recurrent(w.baseAddress!, Int32(H), o.baseAddress!) }
        }
        return out
    }

    /// `W_hh` transposed (H × 4H), packed in half precision by `ink_lstm_pack_recurrent_f16`.
    private static func packedHalf(_ transposed: [Float], hiddenSize H: Int) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: Int(ink_lstm_packed_count(Int32(H))))
        transposed.withUnsafeBufferPointer { w in
            out.withUnsafeMutableBufferPointer { o in ink_lstm_pack_recurrent_f16(w.baseAddress!, Int32(H), o.baseAddress!) }
        }
        return out
    }

    /// Runs both directions over `input` (T × inputSize) and writes T × 2H values to `output`.
    /// `gates` is scratch space of at least `gateCount(steps: T, hiddenSize: H)` floats.
    /// Allocates only the 4H floats of state. Complexity: O(T · 8H · (in + H)).
    func run(input: UnsafePointer<Float>, steps T: Int, output: UnsafeMutablePointer<Float>,
             gates: UnsafeMutablePointer<Float>) {
        guard T > 0 else { return }
        let H = hiddenSize, G = 4 * H, G2 = 8 * H, outStride = 2 * H
        // gates = bias + X · W_ihᵀ for all steps and both directions at once.
        projection.apply(input, rows: T, output: gates)
        // State: h forward, c forward, h backward, c backward.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * H) { state in
            let s = state.baseAddress!
            s.initialize(repeating: 0, count: 4 * H)
            if let q = int8Recurrent {
                runInt8Steps(q, steps: T, gates: gates, state: s, output: output)
                return
            }
            if let packed = packedRecurrentHalf {
                runPackedSteps(packed, steps: T, gates: gates, state: s, output: output, step: ink_lstm_step_f16)
                return
            }
            if let packed = packedRecurrent {
                runPackedSteps(packed, steps: T, gates: gates, state: s, output: output, step: ink_lstm_step)
                return
            }
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

extension BidirectionalLSTM {
    /// The T recurrent steps of both directions by a packed kernel (`ink_lstm_step` or
    /// `ink_lstm_step_f16`): forward at t and backward at T−1−t in the same loop. `state` holds h and c
    /// of the forward direction, then of the backward one (4H floats, zero on entry).
    @inline(__always)
    func runPackedSteps<Weight>(
        _ packed: (forward: [Weight], backward: [Weight]), steps T: Int, gates: UnsafeMutablePointer<Float>,
        state s: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>,
        step: (UnsafePointer<Weight>?, Int32, Int32, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
               UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) -> Void
    ) {
        let H = hiddenSize, G = 4 * H, G2 = 8 * H, outStride = 2 * H, h32 = Int32(H)
        packed.forward.withUnsafeBufferPointer { pf in
            packed.backward.withUnsafeBufferPointer { pb in
                for t in 0..<T {
                    let tb = T - 1 - t, r: Int32 = t > 0 ? 1 : 0
                    step(pf.baseAddress!, h32, r, gates + t * G2, s, s + H, output + t * outStride)
                    step(pb.baseAddress!, h32, r, gates + tb * G2 + G, s + 2 * H, s + 3 * H, output + tb * outStride + H)
                }
            }
        }
    }
}

extension BidirectionalLSTM {
    /// The T recurrent steps of both directions with 8-bit `W_hh`: `ink_lstm_step_q8_vnni`,
    /// `ink_lstm_step_q8_avx2`, `ink_lstm_step_q8_neon`, or the portable product
    /// (`ink_lstm_recurrent_q8_portable`) and the Swift cell.
    func runInt8Steps(_ q: Int8Recurrent, steps T: Int, gates: UnsafeMutablePointer<Float>,
                      state s: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let H = hiddenSize, G = 4 * H, G2 = 8 * H, outStride = 2 * H, h32 = Int32(H)
        q.forwardScale.withUnsafeBufferPointer { fs in
            q.backwardScale.withUnsafeBufferPointer { bs in
                if let p = q.packed {
                    p.forward.weights.withUnsafeBufferPointer { fw in
                        p.forward.correction.withUnsafeBufferPointer { fc in
                            p.backward.weights.withUnsafeBufferPointer { bw in
                                p.backward.correction.withUnsafeBufferPointer { bc in
                                    for t in 0..<T {
                                        let tb = T - 1 - t, r: Int32 = t > 0 ? 1 : 0
                                        ink_lstm_step_q8_vnni(fw.baseAddress!, fc.baseAddress!, fs.baseAddress!, h32, r,
                                                              gates + t * G2, s, s + H, output + t * outStride)
                                        ink_lstm_step_q8_vnni(bw.baseAddress!, bc.baseAddress!, bs.baseAddress!, h32, r,
                                                              gates + tb * G2 + G, s + 2 * H, s + 3 * H,
                                                              output + tb * outStride + H)
                                    }
                                }
                            }
                        }
                    }
                    return
                }
                if let p = q.packedPairs {
                    // The AVX2 and NEON steps take the same arguments (the same packing).
                    let step = q.kernel == .neon ? ink_lstm_step_q8_neon : ink_lstm_step_q8_avx2
                    p.forward.withUnsafeBufferPointer { fw in
                        p.backward.withUnsafeBufferPointer { bw in
                            for t in 0..<T {
                                let tb = T - 1 - t, r: Int32 = t > 0 ? 1 : 0
                                step(fw.baseAddress!, fs.baseAddress!, h32, r, gates + t * G2, s, s + H, output + t * outStride)
                                step(bw.baseAddress!, bs.baseAddress!, h32, r, gates + tb * G2 + G, s + 2 * H, s + 3 * H,
                                     output + tb * outStride + H)
                            }
                        }
                    }
                    return
                }
                q.forward.withUnsafeBufferPointer { fw in
                    q.backward.withUnsafeBufferPointer { bw in
                        for t in 0..<T {
                            let tb = T - 1 - t
                            let gf = gates + t * G2, gb = gates + tb * G2 + G
                            if t > 0 {
                                ink_lstm_recurrent_q8_portable(fw.baseAddress!, fs.baseAddress!, h32, s, gf)
                                ink_lstm_recurrent_q8_portable(bw.baseAddress!, bs.baseAddress!, h32, s + 2 * H, gb)
                            }
                            _lstmCell(gf, h: s, c: s + H, out: output + t * outStride, count: H)
                            _lstmCell(gb, h: s + 2 * H, c: s + 3 * H, out: output + tb * outStride + H, count: H)
                        }
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
    _load8(UnsafePointer(p))
}

@inline(__always)
func _load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
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
