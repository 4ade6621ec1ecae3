#if canImport(Accelerate)
import Accelerate
#else
import _CBLAS
#endif
import _InkKernels

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
        gemm(transposeA: false, transposeB: false, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
    }

    /// `C[m×n] = op(A) · op(B) + beta · C`, op a transpose where asked: `A` is stored m × k (k × m transposed),
    /// `B` k × n (n × k transposed). For writer adaptation's gradients.
    @inline(__always)
    static func gemm(transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int,
                     a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                     beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int) {
        guard m > 0, n > 0 else { return }
        if ownProducts {
            return ownGemm(transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b,
                           ldb: ldb, beta: beta, c: c, ldc: ldc)
        }
        cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                    Int32(m), Int32(n), Int32(k), 1, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
    }

    /// The kernels OpenBLAS's run-time dispatch chose for this processor (nil with another BLAS).
    static var blasCore: String? {
        #if canImport(Accelerate)
        return nil
        #else
        return openblas_get_corename().map { String(cString: $0) }
        #endif
    }

    /// OpenBLAS kernels older than AVX2, what its dispatch falls back to on a processor it does not know (Debian's
    /// 0.3.21 runs "Prescott" on an Intel Xeon of family 6, model 207; `Docs/personalization.md`, "Half the shipped
    /// network's votes").
    static let preAVX2Cores: Set<String> = ["prescott", "core2", "penryn", "dunnington", "nehalem", "atom", "katmai",
                                            "coppermine", "northwood", "banias", "barcelona", "opteron", "opteron_sse3",
                                            "bobcat", "sandybridge"]

    /// The library's own kernels of ``ownGemm(transposeA:transposeB:m:n:k:a:lda:b:ldb:beta:c:ldc:kernel:)``, over the
    /// same packing and with the same bits: `ink_gemm_packed_avx512` and `ink_gemm_packed_avx2`.
    enum OwnKernel: Sendable, CaseIterable {
        case avx512, avx2

        /// Whether this processor runs it.
        var isAvailable: Bool { self == .avx512 ? _BLAS.hasAVX512 : _SmallProduct.hasAVX2FMA }
    }

    /// The kernel of ``ownGemm(transposeA:transposeB:m:n:k:a:lda:b:ldb:beta:c:ldc:kernel:)`` on this processor (nil:
    /// it has neither).
    static let ownKernel: OwnKernel? = OwnKernel.allCases.first { $0.isAvailable }

    /// Whether ``gemm(transposeA:transposeB:m:n:k:a:lda:b:ldb:beta:c:ldc:)`` runs the library's own product
    /// (``ownGemm(transposeA:transposeB:m:n:k:a:lda:b:ldb:beta:c:ldc:kernel:)``) instead of the BLAS: where the processor
    /// has AVX-512 or AVX2 and the BLAS chose kernels without AVX2 for it. Learning a writer profile from 50 words on an
    /// Intel Xeon with AVX-512 took 2–2.5 times as long through the BLAS there, and with the AVX2 kernel (a session
    /// build's choice) about 1.3 times as long as with the AVX-512 one (`Docs/personalization.md`).
    static let ownProducts: Bool = {
        guard ownKernel != nil, let core = blasCore else { return false }
        return preAVX2Cores.contains(core.lowercased())
    }()

    /// Whether the processor can run the AVX-512 kernels (``OwnKernel/avx512``).
    static var hasAVX512: Bool { ink_kernels_avx512_available() != 0 }

    /// `C[m×n] = op(A) · op(B) + beta · C` by the library's own kernel (`ink_gemm_packed_avx512`, or
    /// `ink_gemm_packed_avx2`): op(B) packed into column panels, op(A) copied row-major where it is stored transposed
    /// (or, where that is the larger of the two and n < m, Cᵀ = op(B)ᵀ · A), C scaled by `beta` first. Only where
    /// `kernel` ``OwnKernel/isAvailable``. The same products as the BLAS's up to the order of the sums.
    static func ownGemm(transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int,
                        a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                        beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int, kernel: OwnKernel = ownKernel ?? .avx2) {
        let product = kernel == .avx512 ? ink_gemm_packed_avx512 : ink_gemm_packed_avx2
        guard m > 0, n > 0 else { return }
        if beta == 0 {
            for i in 0..<m { (c + i * ldc).update(repeating: 0, count: n) }
        } else if beta != 1 {
            for i in 0..<m { for j in 0..<n { c[i * ldc + j] *= beta } }
        }
        guard k > 0 else { return }
        if transposeA && n < m {
            // Cᵀ = op(B)ᵀ · A instead: A, stored k × m, is packed as it is stored, and only op(B)ᵀ (n × k, fewer
            // floats than A) is moved, where B is not already stored that way.
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Int(ink_gemm_packed_count(Int32(k), Int32(m)))) { packed in
                ink_gemm_pack_b_strided(a, Int32(lda), 0, Int32(k), Int32(m), packed.baseAddress!)
                withUnsafeTemporaryAllocation(of: Float.self, capacity: n * m + (transposeB ? 0 : n * k)) { scratch in
                    let t = scratch.baseAddress!, bt = t + n * m
                    t.update(repeating: 0, count: n * m)
                    if transposeB {
                        product(Int32(n), Int32(m), Int32(k), b, Int32(ldb), packed.baseAddress!, nil, t, Int32(m))
                    } else {
                        ink_transpose_f32(b, Int32(k), Int32(n), Int32(ldb), bt)
                        product(Int32(n), Int32(m), Int32(k), bt, Int32(k), packed.baseAddress!, nil, t, Int32(m))
                    }
                    for j in 0..<n {
                        let row = t + j * m
                        for i in 0..<m { c[i * ldc + j] += row[i] }
                    }
                }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: Int(ink_gemm_packed_count(Int32(k), Int32(n)))) { packed in
            let p = packed.baseAddress!
            ink_gemm_pack_b_strided(b, Int32(ldb), transposeB ? 1 : 0, Int32(k), Int32(n), p)
            guard transposeA else {
                product(Int32(m), Int32(n), Int32(k), a, Int32(lda), p, nil, c, Int32(ldc))
                return
            }
            withUnsafeTemporaryAllocation(of: Float.self, capacity: m * k) { rows in
                ink_transpose_f32(a, Int32(k), Int32(m), Int32(lda), rows.baseAddress!)
                product(Int32(m), Int32(n), Int32(k), rows.baseAddress!, Int32(k), p, nil, c, Int32(ldc))
            }
        }
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
