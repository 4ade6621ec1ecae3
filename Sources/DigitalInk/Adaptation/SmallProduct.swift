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

    /// `w` (rows × columns, row-major) transposed: columns × rows, by `ink_transpose_f32` (tiles of 16 × 16, so that
    /// the rows written stay in the cache while a tile's columns are read; the forward pass transposes each recurrent
    /// weight at every step of learning).
    static func transposed(_ w: [Float], rows: Int, columns: Int) -> [Float] {
        precondition(w.count == rows * columns)
        return [Float](unsafeUninitializedCapacity: w.count) { dst, initialized in
            w.withUnsafeBufferPointer { src in
                if let from = src.baseAddress, let to = dst.baseAddress {
                    ink_transpose_f32(from, Int32(rows), Int32(columns), Int32(columns), to)
                }
            }
            initialized = w.count
        }
    }
}
