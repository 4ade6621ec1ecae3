import _InkKernels

/// The matrix products of a recurrent step in writer adaptation (``_FloatLSTMNetwork``): the few sequences still
/// running (m ≤ 10) against a 4H × H weight, once per frame; and those of a change's gradient with its rank (8) on
/// one side (``_FloatLSTMNetwork/projected(_:_:rows:count:pair:pool:)``). A BLAS packs the larger operand for each
/// such product; the kernels here read it in place instead: `ink_f32_gemm_small_avx512` where the processor has AVX-512,
/// `ink_f32_gemm_small_avx2` where it has AVX2 and FMA (both a fused multiply-add per term, in order of k: the same
/// bits), elsewhere the BLAS. Row-major. Internal.
enum _SmallProduct {
    /// Which code runs a product.
    enum Kernel: Sendable, CaseIterable {
        case avx512, avx2, blas

        /// Whether this processor runs it.
        var isAvailable: Bool {
            switch self {
            case .avx512: return _BLAS.hasAVX512
            case .avx2: return _SmallProduct.hasAVX2FMA
            case .blas: return true
            }
        }
    }

    static let hasAVX2FMA: Bool = ink_kernels_avx2_fma_available() != 0

    /// The kernel this processor runs: the first available of ``Kernel/allCases``. On an Intel Xeon of 2026, learning a
    /// writer profile from 50 words took 7–8% less time with the AVX-512 one than with the AVX2 one, and the same
    /// bytes (`Docs/personalization.md`, "Learning's small products in AVX-512, and an AVX2 form of its own
    /// products").
    static let fastest: Kernel = Kernel.allCases.first { $0.isAvailable } ?? .blas

    /// `C[m×n] = A[m×k] · B[k×n]`, plus C where `accumulate`.
    @inline(__always)
    static func gemm(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                     accumulate: Bool = false, c: UnsafeMutablePointer<Float>, ldc: Int, kernel: Kernel = fastest) {
        guard m > 0, n > 0 else { return }
        switch kernel {
        case .avx512:
            ink_f32_gemm_small_avx512(Int32(m), Int32(n), Int32(k), a, Int32(lda), b, Int32(ldb), c, Int32(ldc), accumulate ? 1 : 0)
        case .avx2:
            ink_f32_gemm_small_avx2(Int32(m), Int32(n), Int32(k), a, Int32(lda), b, Int32(ldb), c, Int32(ldc), accumulate ? 1 : 0)
        case .blas:
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
