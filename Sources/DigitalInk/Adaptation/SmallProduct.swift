import _InkKernels

/// The matrix products of a recurrent step in writer adaptation (``_FloatLSTMNetwork``): the few sequences still
/// running (m ≤ 10) against a 4H × H weight, once per frame. A BLAS packs the whole weight for each such product;
/// with AVX2 and FMA the kernel `ink_f32_gemm_small_avx2` reads it in place instead (a fused multiply-add per term,
/// in order of k), elsewhere the BLAS does it. Row-major. Internal.
enum _SmallProduct {
    static let hasAVX2FMA: Bool = ink_kernels_avx2_fma_available() != 0

    /// `C[m×n] = A[m×k] · B[k×n]`, plus C where `accumulate`.
    @inline(__always)
    static func gemm(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                     accumulate: Bool = false, c: UnsafeMutablePointer<Float>, ldc: Int, useKernel: Bool = hasAVX2FMA) {
        guard m > 0, n > 0 else { return }
        if useKernel {
            ink_f32_gemm_small_avx2(Int32(m), Int32(n), Int32(k), a, Int32(lda), b, Int32(ldb), c, Int32(ldc), accumulate ? 1 : 0)
        } else {
            _BLAS.gemm(transposeA: false, transposeB: false, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb,
                       beta: accumulate ? 1 : 0, c: c, ldc: ldc)
        }
    }

    /// `w` (rows × columns, row-major) transposed: columns × rows.
    static func transposed(_ w: [Float], rows: Int, columns: Int) -> [Float] {
        precondition(w.count == rows * columns)
        var out = [Float](repeating: 0, count: w.count)
        w.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<rows { for j in 0..<columns { dst[j * rows + i] = src[i * columns + j] } }
            }
        }
        return out
    }
}
