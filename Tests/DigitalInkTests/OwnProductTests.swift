import Foundation
import Testing
@testable import DigitalInk

@Suite("Learning's products without the BLAS: the library's AVX-512 kernel gives C = op(A)·op(B) + beta·C")
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
          .enabled(if: _BLAS.hasAVX512))
    func products() {
        var g = SplitMix64(seed: 11)
        func draw(_ n: Int) -> [Float] { (0..<n).map { _ in Float.random(in: -1...1, using: &g) } }
        var compared = 0
        for (m, n, k) in [(1, 1, 1), (7, 37, 13), (37, 7, 13), (6, 32, 64), (8, 384, 500), (768, 8, 300), (13, 5, 0),
                          (100, 33, 65)] {
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
                                          b: bp.baseAddress!, ldb: ldb, beta: beta, c: cp.baseAddress!, ldc: ldc)
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
            } } }
        }
        #expect(compared == 96)
    }

    @Test("the BLAS's kernels are named where it is OpenBLAS, and the library's products run only with AVX-512")
    func dispatch() {
        #if !canImport(Accelerate)
        #expect(_BLAS.blasCore.map { !$0.isEmpty } == true)
        #endif
        if _BLAS.ownProducts { #expect(_BLAS.hasAVX512) }
    }
}
