import _InkKernels

/// `y = x · Wᵀ + b` for every row x of a matrix, with 8-bit weights (one float scale per output row)
/// and each input row quantized to 8 bits on the fly (`Training/inkrec_training/quantize.py`,
/// `qlinear`, is the reference): integer products summed exactly, then
/// `float(sum) · (rowScale · weightScale[j]) + b[j]`. AVX-512 VNNI over weights packed here when the
/// CPU has it (and `vnni` is asked), else portable C; both give the same values. Internal.
struct _QuantizedAffineMap: Sendable {
    let inputs: Int
    let outputs: Int
    /// W, outputs × inputs row-major (PyTorch's layout), and its scale per output row.
    let weights: [Int8]
    let weightScale: [Float]
    let bias: [Float]
    /// W packed by `ink_q8_pack` and 128 · Σ_k W[j, k], when the VNNI kernel is used.
    private let packed: (weights: [Int8], correction: [Int32])?

    /// Whether the VNNI kernel applies the map.
    var usesVNNI: Bool { packed != nil }

    /// Bytes of one quantized input row (inputs rounded up to 4).
    var quantizedRowBytes: Int { (inputs + 3) / 4 * 4 }

    init(weights: [Int8], weightScale: [Float], inputs k: Int, outputs n: Int, bias: [Float], vnni: Bool) {
        precondition(weights.count == k * n && weightScale.count == n && bias.count == n)
        self.inputs = k
        self.outputs = n
        self.weights = weights
        self.weightScale = weightScale
        self.bias = bias
        packed = vnni && _Int8Kernels.hasVNNI ? _Int8Kernels.pack(weights, outputs: n, inputs: k) : nil
    }

    /// `output` (m × n, leading dimension n) = the map of `input` (m × k, leading dimension k).
    /// Complexity: O(m · k · n); scratch of m · (k + 4) bytes on the stack or heap.
    func apply(_ input: UnsafePointer<Float>, rows m: Int, output: UnsafeMutablePointer<Float>) {
        guard m > 0 else { return }
        let ldq = quantizedRowBytes
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: m * ldq) { q in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: m) { s in
                if packed != nil {
                    ink_q8_quantize_rows_avx512(input, Int32(m), Int32(inputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!)
                } else {
                    ink_q8_quantize_rows(input, Int32(m), Int32(inputs), Int32(inputs), q.baseAddress!, Int32(ldq), s.baseAddress!)
                }
                weightScale.withUnsafeBufferPointer { ws in
                    bias.withUnsafeBufferPointer { b in
                        if let packed {
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
}

/// The 8-bit kernels' availability and packing. Internal.
enum _Int8Kernels {
    /// Whether this CPU runs the AVX-512 VNNI kernels.
    static let hasVNNI: Bool = ink_kernels_avx512vnni_available() != 0

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
}
