#if canImport(Accelerate)
import Accelerate
#else
import _CBLAS
#endif
import Foundation

/// The small linear-algebra layer the network needs, over CBLAS (OpenBLAS on Linux, Accelerate on
/// Apple platforms). Row-major throughout.
enum _BLAS {
    /// Thread policy: BLAS runs single-threaded, so that one recognition uses one core and concurrent
    /// recognitions scale over cores. `DIGITALINK_BLAS_THREADS` overrides the count (OpenBLAS only).
    static let configureThreads: Void = {
        #if !canImport(Accelerate)
        let requested = ProcessInfo.processInfo.environment["DIGITALINK_BLAS_THREADS"].flatMap { Int32($0) } ?? 1
        openblas_set_num_threads(max(1, requested))
        #endif
    }()

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

    /// `y[columns] += A[rows×columns]ᵀ · x[rows]`: the product with a matrix stored transposed. BLAS
    /// runs its column-major non-transposed kernel here (axpy over contiguous rows of A), which measured
    /// somewhat faster for the LSTM's recurrent product than the dot-product kernel over PyTorch's layout.
    @inline(__always)
    static func gemvTransposed(rows: Int, columns: Int, a: UnsafePointer<Float>, x: UnsafePointer<Float>,
                               y: UnsafeMutablePointer<Float>) {
        cblas_sgemv(CblasRowMajor, CblasTrans, Int32(rows), Int32(columns), 1, a, Int32(columns), x, 1, 1, y, 1)
    }
}
