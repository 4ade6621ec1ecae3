import Foundation
import Testing
import _InkKernels
@testable import DigitalInk

@Suite("Learning's products without the BLAS: the library's AVX-512 and AVX2 kernels give C = op(A)·op(B) + beta·C")
struct OwnProductTests {
    /// C = op(A)·op(B) + beta·C written out in Double (A stored m × k, or k × m when transposed; B k × n, or n × k).
    static func reference(_ tA: Bool, _ tB: Bool, m: Int, n: Int, k: Int, a: [Float], lda: Int, b: [Float], ldb: Int,
                          beta: Float, c: [Float], ldc: Int) -> [Float] {
        var out = c
        for i in 0..<m { for j in 0..<n {
            var s = Double(beta) * Double(c[i * ldc + j])
            if beta == 0 { s = 0 }
            for p in 0..<k {
                s += Double(tA ? a[p * lda + i] : a[i * lda + p]) * Double(tB ? b[j * ldb + p] : b[p * ldb + j])
            }
            out[i * ldc + j] = Float(s)
        } }
        return out
    }

    @Test("every transpose, beta 0, 1 and 0.5, n below and above m, partial panels, k = 0, wider leading dimensions",
          arguments: _BLAS.OwnKernel.allCases.filter(\.isAvailable))
    func products(kernel: _BLAS.OwnKernel) { Self.check(kernel) }

    /// Both kernels sum each term with one fused multiply-add in order of k from the bias or C: the same bits.
    @Test("the AVX2 kernel gives the AVX-512 kernel's bits", .enabled(if: _BLAS.OwnKernel.allCases.allSatisfy(\.isAvailable)))
    func sameBits() {
        let wide = Self.check(.avx512), narrow = Self.check(.avx2)
        #expect(wide.count == narrow.count)
        for (i, (x, y)) in zip(wide, narrow).enumerated() {
            #expect(x.map(\.bitPattern) == y.map(\.bitPattern), "product \(i)")
        }
    }

    /// The kernels' own form with a bias (the engine's float projections use it; learning's products do not): C =
    /// bias + A · B over packed B, a bias never read past column n, nor C written there.
    @Test("with a bias, each kernel gives bias + A·B, and both the same bits", arguments: _BLAS.OwnKernel.allCases.filter(\.isAvailable))
    func bias(kernel: _BLAS.OwnKernel) {
        var g = SplitMix64(seed: 12)
        func draw(_ n: Int) -> [Float] { (0..<n).map { _ in Float.random(in: -1...1, using: &g) } }
        for (m, n, k) in [(1, 3, 5), (7, 37, 13), (13, 64, 20), (5, 17, 1)] {
            let lda = k + 1, ldc = n + 2
            let a = draw(m * lda), b = draw(k * n), bias = draw(n) + [.nan]  // past column n: never read
            var packed = [Float](repeating: 0, count: Int(ink_gemm_packed_count(Int32(k), Int32(n))))
            ink_gemm_pack_b(b, Int32(k), Int32(n), &packed)
            var got = [Float](repeating: -7, count: m * ldc)
            (kernel == .avx512 ? ink_gemm_packed_avx512 : ink_gemm_packed_avx2)(Int32(m), Int32(n), Int32(k), a, Int32(lda),
                                                                                 packed, bias, &got, Int32(ldc))
            let want = Self.reference(false, false, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: n, beta: 0,
                                      c: [Float](repeating: 0, count: m * ldc), ldc: ldc)
            for i in 0..<m {
                for j in 0..<n {
                    let w = want[i * ldc + j] + bias[j]
                    #expect(abs(got[i * ldc + j] - w) <= 1e-5 * max(1, abs(w)), "m \(m) n \(n) k \(k) (\(i), \(j))")
                }
                #expect(got[i * ldc + n] == -7 && got[i * ldc + n + 1] == -7)
            }
            if kernel == .avx2, _BLAS.OwnKernel.avx512.isAvailable {
                var wide = [Float](repeating: -7, count: m * ldc)
                ink_gemm_packed_avx512(Int32(m), Int32(n), Int32(k), a, Int32(lda), packed, bias, &wide, Int32(ldc))
                #expect(wide.map(\.bitPattern) == got.map(\.bitPattern), "m \(m) n \(n) k \(k)")
            }
        }
    }

    /// Every case below through `kernel`, checked against ``reference(_:_:m:n:k:a:lda:b:ldb:beta:c:ldc:)``; the
    /// results, in order.
    @discardableResult
    static func check(_ kernel: _BLAS.OwnKernel) -> [[Float]] {
        var results: [[Float]] = []
        var g = SplitMix64(seed: 11)
        func draw(_ n: Int) -> [Float] { (0..<n).map { _ in Float.random(in: -1...1, using: &g) } }
        var compared = 0
        // Row counts through both kernels' blocks of 6 and every remainder (the AVX2 kernel's as one block), column
        // counts through their 32-column panels, halves of 16 and masked tails of 8 and 16.
        for (m, n, k) in [(1, 1, 1), (7, 37, 13), (37, 7, 13), (6, 32, 64), (8, 384, 500), (768, 8, 300), (13, 5, 0),
                          (100, 33, 65), (11, 20, 9), (16, 49, 7)] {
            for tA in [false, true] { for tB in [false, true] { for beta: Float in [0, 1, 0.5] {
                let lda = (tA ? m : k) + 3, ldb = (tB ? k : n) + 2, ldc = n + 1
                let a = draw((tA ? k : m) * lda), b = draw((tB ? n : k) * ldb)
                var c = draw(m * ldc)
                if beta == 0 { for i in 0..<m { c[i * ldc] = .nan } }  // beta 0 never reads C
                var got = c
                a.withUnsafeBufferPointer { ap in
                    b.withUnsafeBufferPointer { bp in
                        got.withUnsafeMutableBufferPointer { cp in
                            _BLAS.ownGemm(transposeA: tA, transposeB: tB, m: m, n: n, k: k, a: ap.baseAddress!, lda: lda,
                                          b: bp.baseAddress!, ldb: ldb, beta: beta, c: cp.baseAddress!, ldc: ldc, kernel: kernel)
                        }
                    }
                }
                let want = Self.reference(tA, tB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
                var worst: Float = 0
                for i in 0..<m { for j in 0..<n {
                    worst = max(worst, abs(got[i * ldc + j] - want[i * ldc + j]) / max(1, abs(want[i * ldc + j])))
                } }
                // Float sums of k products in another order than the Double reference's: a rounding of about 1e-7 a term.
                #expect(worst <= 1e-5 * Float(max(1, k / 100)), "m \(m) n \(n) k \(k) tA \(tA) tB \(tB) beta \(beta): \(worst)")
                // The padding after each row is left as it was.
                for i in 0..<m { #expect(got[i * ldc + n].bitPattern == c[i * ldc + n].bitPattern) }
                compared += 1
                results.append(got)
            } } }
        }
        #expect(compared == 120)
        return results
    }

    @Test("the BLAS's kernels are named where it is OpenBLAS, and the library's products run only with AVX-512 or AVX2")
    func dispatch() {
        #if !canImport(Accelerate)
        #expect(_BLAS.blasCore.map { !$0.isEmpty } == true)
        #endif
        if _BLAS.ownProducts { #expect(_BLAS.ownKernel?.isAvailable == true) }
        #expect(_BLAS.ownKernel == _BLAS.OwnKernel.allCases.first(where: \.isAvailable))
    }
}
