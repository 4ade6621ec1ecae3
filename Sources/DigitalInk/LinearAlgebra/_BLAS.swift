#if canImport(Accelerate)
import Accelerate
#else
import _CBLAS
#endif

/// The small linear-algebra layer the network needs, over CBLAS (OpenBLAS on Linux, Accelerate on
/// Apple platforms). Row-major throughout.
enum _BLAS {
    /// Sets the number of threads OpenBLAS uses (process-wide; ``ComputeOptions/blasThreads``,
    /// default 1, so that one recognition uses one core and concurrent recognitions scale over
    /// cores). Accelerate manages its own threads: nothing to do there.
    static func setThreads(_ count: Int) {
        #if !canImport(Accelerate)
        openblas_set_num_threads(Int32(max(1, min(count, 64))))
        #endif
    }

    /// `C[m×n] = A[m×k] · B[k×n] + beta · C`.
    @inline(__always)
    static func gemm(m: Int, n: Int, k: Int,
                     a: UnsafePointer<Float>, lda: Int,
                     b: UnsafePointer<Float>, ldb: Int,
                     beta: Float,
                     c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k),
                    1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// `C[m×n] = op(A) · op(B) + beta · C`, op a transpose where asked: `A` is stored m × k (k × m transposed),
    /// `B` k × n (n × k transposed). For writer adaptation's gradients.
    @inline(__always)
    static func gemm(transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int,
                     a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                     beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                    Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// `y[n] += A[m×n]ᵀ · x[m]` for `A` stored row-major m × n (PyTorch's layout of a weight read backwards).
    @inline(__always)
    static func gemvTransposed(m: Int, n: Int, a: UnsafePointer<Float>, x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>) {
        cblas_sgemv(CblasRowMajor, CblasTrans, Int32(m), Int32(n), 1, a, Int32(n), x, 1, 1, y, 1)
    }

    /// `y[m] = A[m×n] · x[n] + beta · y`.
    @inline(__always)
    static func gemv(m: Int, n: Int, a: UnsafePointer<Float>, x: UnsafePointer<Float>, beta: Float, y: UnsafeMutablePointer<Float>) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(m), Int32(n), 1, a, Int32(n), x, 1, beta, y, 1)
    }

    /// `y[columns] += A[rows×columns]ᵀ · x[rows]`: the product with a matrix stored transposed. BLAS
    /// runs its column-major non-transposed kernel here (axpy over contiguous rows of A), which measured
    /// somewhat faster for the LSTM's recurrent product than the dot-product kernel over PyTorch's layout.
    @inline(__always)
    static func gemvTransposed(rows: Int, columns: Int, a: UnsafePointer<Float>, x: UnsafePointer<Float>,
                               y: UnsafeMutablePointer<Float>) {
        cblas_sgemv(CblasRowMajor, CblasTrans, Int32(rows), Int32(columns), 1, a, Int32(columns), x, 1, 1, y, 1)
    }
}
