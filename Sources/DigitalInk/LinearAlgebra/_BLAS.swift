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

    /// `C[m×n] = A[m×k] · B[n×k]ᵀ + beta · C` (B given row-major as n rows of k, as PyTorch stores weights).
    @inline(__always)
    static func gemmTransB(m: Int, n: Int, k: Int,
                          a: UnsafePointer<Float>, lda: Int,
                          b: UnsafePointer<Float>, ldb: Int,
                          beta: Float,
                          c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k),
                    1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// `y[m] = A[m×n] · x[n] + beta · y`.
    @inline(__always)
    static func gemv(m: Int, n: Int, a: UnsafePointer<Float>, x: UnsafePointer<Float>,
                     beta: Float, y: UnsafeMutablePointer<Float>) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(m), Int32(n), 1, a, Int32(n), x, 1, beta, y, 1)
    }
}
