import _InkKernels

/// `y = x · W + b` for every row x of a matrix: a layer's weights (k × n, row-major) and bias (n),
/// applied by BLAS or, when the `avx512` projection kernel is used, by `ink_gemm_packed_avx512` over
/// the weights packed once here (BLAS repacks them on every call). Internal.
struct _AffineMap: Sendable {
    /// Input width k and output width n.
    let inputs: Int
    let outputs: Int
    /// W, k × n row-major.
    let weights: [Float]
    /// b, n.
    let bias: [Float]
    /// W packed by `ink_gemm_pack_b`, when the `avx512` kernel is used.
    private let packed: [Float]?

    /// The kernel that applies the map.
    var kernel: _ProjectionKernel { packed == nil ? .blas : .avx512 }

    /// `kernel` is used where this CPU runs it; otherwise BLAS.
    init(weights: [Float], inputs k: Int, outputs n: Int, bias: [Float], kernel: _ProjectionKernel) {
        precondition(weights.count == k * n && bias.count == n)
        self.inputs = k
        self.outputs = n
        self.weights = weights
        self.bias = bias
        var packed: [Float]? = nil
        if kernel == .avx512, kernel.isAvailable {
            var p = [Float](repeating: 0, count: Int(ink_gemm_packed_count(Int32(k), Int32(n))))
            weights.withUnsafeBufferPointer { w in
                p.withUnsafeMutableBufferPointer { o in ink_gemm_pack_b(w.baseAddress!, Int32(k), Int32(n), o.baseAddress!) }
            }
            packed = p
        }
        self.packed = packed
    }

    /// `output` (m × n, leading dimension n) = bias in every row + `input` (m × k, leading dimension k) · W.
    /// Complexity: O(m · k · n).
    @inline(__always)
    func apply(_ input: UnsafePointer<Float>, rows m: Int, output: UnsafeMutablePointer<Float>) {
        guard m > 0 else { return }
        if let packed {
            packed.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    ink_gemm_packed_avx512(Int32(m), Int32(outputs), Int32(inputs), input, Int32(inputs), w.baseAddress!,
                                           b.baseAddress!, output, Int32(outputs))
                }
            }
            return
        }
        bias.withUnsafeBufferPointer { b in
            for t in 0..<m { (output + t * outputs).update(from: b.baseAddress!, count: outputs) }
        }
        weights.withUnsafeBufferPointer { w in
            _BLAS.gemm(m: m, n: outputs, k: inputs, a: input, lda: inputs, b: w.baseAddress!, ldb: outputs,
                       beta: 1, c: output, ldc: outputs)
        }
    }
}
