import _InkKernels

/// `y = x · Wᵀ + b` for every row x of a matrix, with 8-bit weights (one float scale per output row)
/// and each input row quantized to 8 bits on the fly (`Training/inkrec_training/quantize.py`,
/// `qlinear`, is the reference): integer products summed exactly, then
/// `float(sum) · (rowScale · weightScale[j]) + b[j]`. AVX-512 VNNI, AVX2 or NEON over weights packed
/// here (``_Int8Kernel``), else portable C; all give the same values. Internal.
struct _QuantizedAffineMap: Sendable {
    let inputs: Int
    let outputs: Int
    /// W, outputs × inputs row-major (PyTorch's layout), and its scale per output row.
    let weights: [Int8]
    let weightScale: [Float]
    let bias: [Float]
    /// The kernel that applies the map (the one asked for, or the next one this CPU runs).
    let kernel: _Int8Kernel
    /// W packed by `ink_q8_pack` and 128 · Σ_k W[j, k] (`vnni`), or by `ink_q8_pack_pairs` (`avx2` and
    /// `neon`, no correction); nil for `portable`.
    private let packed: (weights: [Int8], correction: [Int32])?

    /// Whether the VNNI kernel applies the map.
    var usesVNNI: Bool { kernel == .vnni }

    /// Bytes of one quantized input row (inputs rounded up to 4).
    var quantizedRowBytes: Int { (inputs + 3) / 4 * 4 }

    init(weights: [Int8], weightScale: [Float], inputs k: Int, outputs n: Int, bias: [Float], kernel: _Int8Kernel) {
        precondition(weights.count == k * n && weightScale.count == n && bias.count == n)
        self.inputs = k
        self.outputs = n
        self.weights = weights
        self.weightScale = weightScale
        self.bias = bias
        self.kernel = kernel.usable
        switch self.kernel {
        case .vnni: packed = _Int8Kernels.pack(weights, outputs: n, inputs: k)
        case .avx2, .neon: packed = (_Int8Kernels.packPairs(weights, outputs: n, inputs: k), [])
        case .portable: packed = nil
        }
    }

    /// `output` (m × n, leading dimension n) = the map of `input` (m × k, leading dimension k).
    /// Complexity: O(m · k · n); scratch of m · (k + 4) bytes (16-bit values with `avx2`: 2m · (k + 2);
    /// `neon`: m · (k + 2)) on the stack or heap.
    func apply(_ input: UnsafePointer<Float>, rows m: Int, output: UnsafeMutablePointer<Float>) {
        guard m > 0 else { return }
        if kernel == .avx2, let packed {
            applyPairs(input, rows: m, packed: packed.weights, output: output,
                       quantize: ink_q8_quantize_rows_s16_avx2, gemm: ink_q8_gemm_avx2)
            return
        }
        if kernel == .neon, let packed {
            applyPairs(input, rows: m, packed: packed.weights, output: output,
                       quantize: ink_q8_quantize_rows_s8_neon, gemm: ink_q8_gemm_neon)
            return
        }
        let ldq = quantizedRowBytes
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: m * ldq) { q in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: m) { s in
                if kernel == .vnni {
                    ink_q8_quantize_rows_avx512(input, Int32(m), Int32(inputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!)
                } else {
                    ink_q8_quantize_rows(input, Int32(m), Int32(inputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!)
                }
                weightScale.withUnsafeBufferPointer { ws in
                    bias.withUnsafeBufferPointer { b in
                        if kernel == .vnni, let packed {
                            packed.weights.withUnsafeBufferPointer { pw in
                                packed.correction.withUnsafeBufferPointer { pc in
                                    ink_q8_gemm_vnni(Int32(m), Int32(outputs), Int32(inputs), q.baseAddress!, Int32(ldq),
                                                     s.baseAddress!, pw.baseAddress!, pc.baseAddress!, ws.baseAddress!,
                                                     b.baseAddress!, output, Int32(outputs))
                                }
                            }
                        } else {
                            weights.withUnsafeBufferPointer { w in
                                ink_q8_gemm_portable(Int32(m), Int32(outputs), Int32(inputs), q.baseAddress!, Int32(ldq),
                                                     s.baseAddress!, w.baseAddress!, ws.baseAddress!, b.baseAddress!,
                                                     output, Int32(outputs))
                            }
                        }
                    }
                }
            }
        }
    }

    /// `apply` with the kernels over pair-packed weights: rows quantized by `quantize` to `Q` (16-bit
    /// values for `ink_q8_quantize_rows_s16_avx2`, signed bytes for `ink_q8_quantize_rows_s8_neon`; inputs
    /// rounded up to 2 a row), then `gemm` (`ink_q8_gemm_avx2`, `ink_q8_gemm_neon`; the same arguments).
    private func applyPairs<Q>(
        _ input: UnsafePointer<Float>, rows m: Int, packed: [Int8], output: UnsafeMutablePointer<Float>,
        quantize: (UnsafePointer<Float>?, Int32, Int32, Int32, UnsafeMutablePointer<Q>?, Int32, UnsafeMutablePointer<Float>?) -> Void,
        gemm: (Int32, Int32, Int32, UnsafePointer<Q>?, Int32, UnsafePointer<Float>?, UnsafePointer<Int8>?,
               UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafeMutablePointer<Float>?, Int32) -> Void
    ) {
        let ldq = (inputs + 1) / 2 * 2
        withUnsafeTemporaryAllocation(of: Q.self, capacity: m * ldq) { q in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: m) { s in
                quantize(input, Int32(m), Int32(inputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!)
                weightScale.withUnsafeBufferPointer { ws in
                    bias.withUnsafeBufferPointer { b in
                        packed.withUnsafeBufferPointer { pw in
                            gemm(Int32(m), Int32(outputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!,
                                 pw.baseAddress!, ws.baseAddress!, b.baseAddress!, output, Int32(outputs))
                        }
                    }
                }
            }
        }
    }
}

/// How the 8-bit layers (network precision `int8`) compute their products. Internal.
///
/// - `portable`: portable C (`ink_q8_gemm_portable`, `ink_lstm_recurrent_q8_portable`) and the cell in
///   Swift SIMD. Any CPU.
/// - `avx2`: `ink_q8_gemm_avx2` and `ink_lstm_step_q8_avx2` over weights packed in input pairs at load
///   time (x86-64 CPUs with AVX2 and FMA): 16-bit multiply-adds, the same integers.
/// - `neon`: `ink_q8_gemm_neon` and `ink_lstm_step_q8_neon` over the same packing (every arm64 CPU:
///   `ink_kernels_neon_available()` is 1 exactly on aarch64, so this Swift has no `#if arch`): 8-bit
///   products, two to a 16-bit lane, the same integers; its cell is the Swift cell's operations.
/// - `vnni`: `ink_q8_gemm_vnni` and `ink_lstm_step_q8_vnni` (x86-64 CPUs with AVX-512 VNNI), and the
///   head's log-softmax in AVX-512.
///
/// All give the portable kernel's integer sums and then the same float operations; the x86 kernels'
/// LSTM cells differ from the Swift one only in rounding (fused multiply-adds), NEON's not at all.
enum _Int8Kernel: String, Sendable, CaseIterable {
    case portable
    case avx2
    case neon
    case vnni

    /// Whether this CPU runs the kernel.
    var isAvailable: Bool {
        switch self {
        case .portable: return true
        case .avx2: return _Int8Kernels.hasAVX2
        case .neon: return _Int8Kernels.hasNEON
        case .vnni: return _Int8Kernels.hasVNNI
        }
    }

    /// The kernel if this CPU runs it, else the next one (`vnni`, `avx2`, `neon`, `portable`; a CPU runs
    /// the x86 ones or NEON, never both).
    var usable: _Int8Kernel {
        switch self {
        case .vnni where !isAvailable: return _Int8Kernel.avx2.usable
        case .avx2 where !isAvailable: return _Int8Kernel.neon.usable
        case .neon where !isAvailable: return .portable
        default: return self
        }
    }

    /// The fastest kernel this CPU runs. ``ComputeOptions/recurrentKernel`` chooses another.
    static let fastest: _Int8Kernel = _Int8Kernel.vnni.usable
}

/// The 8-bit kernels' availability and packing. Internal.
enum _Int8Kernels {
    /// Whether this CPU runs the AVX-512 VNNI kernels.
    static let hasVNNI: Bool = ink_kernels_avx512vnni_available() != 0
    /// Whether it runs the AVX2 + FMA ones.
    static let hasAVX2: Bool = ink_kernels_avx2_fma_available() != 0
    /// Whether it runs the NEON ones (every arm64 CPU).
    static let hasNEON: Bool = ink_kernels_neon_available() != 0

    /// W (n × k int8, row-major) packed for the VNNI kernels, and 128 · Σ_k W[j, k].
    static func pack(_ w: [Int8], outputs n: Int, inputs k: Int) -> (weights: [Int8], correction: [Int32]) {
        var p = [Int8](repeating: 0, count: Int(ink_q8_packed_bytes(Int32(n), Int32(k))))
        var c = [Int32](repeating: 0, count: n)
        w.withUnsafeBufferPointer { wb in
            p.withUnsafeMutableBufferPointer { pb in
                c.withUnsafeMutableBufferPointer { cb in
                    ink_q8_pack(wb.baseAddress!, Int32(n), Int32(k), pb.baseAddress!, cb.baseAddress!)
                }
            }
        }
        return (p, c)
    }

    /// W (n × k int8, row-major) packed in input pairs for the AVX2 and NEON kernels (`ink_q8_pack_pairs`).
    static func packPairs(_ w: [Int8], outputs n: Int, inputs k: Int) -> [Int8] {
        var p = [Int8](repeating: 0, count: Int(ink_q8_pairs_packed_bytes(Int32(n), Int32(k))))
        w.withUnsafeBufferPointer { wb in
            p.withUnsafeMutableBufferPointer { pb in ink_q8_pack_pairs(wb.baseAddress!, Int32(n), Int32(k), pb.baseAddress!) }
        }
        return p
    }
}
