import Foundation
import Testing
@testable import DigitalInk

@Suite("The small products of adaptation's recurrent steps: the AVX-512 and AVX2 kernels and the BLAS give C = A·B (+ C)")
struct SmallProductTests {
    /// C = A·B (+ C) written out in Double, and each entry's scale: the sum of its terms' sizes (Σ_p |a_ip b_pj|, and
    /// |c_ij| where it accumulates), what a float sum's rounding error is proportional to, whatever its order.
    static func reference(m: Int, n: Int, k: Int, a: [Float], lda: Int, b: [Float], ldb: Int, c: [Float], ldc: Int,
                          accumulate: Bool) -> (values: [Float], scales: [Float]) {
        var out = c, scales = [Float](repeating: 0, count: c.count)
        for i in 0..<m { for j in 0..<n {
            var s = accumulate ? Double(c[i * ldc + j]) : 0
            var size = accumulate ? abs(Double(c[i * ldc + j])) : 0
            for p in 0..<k {
                let t = Double(a[i * lda + p]) * Double(b[p * ldb + j])
                s += t
                size += abs(t)
            }
            out[i * ldc + j] = Float(s)
            scales[i * ldc + j] = Float(size)
        } }
        return (out, scales)
    }

    /// Every shape below through `kernel`, checked against ``reference(m:n:k:a:lda:b:ldb:c:ldc:accumulate:)``;
    /// the results, in order.
    @discardableResult
    static func check(_ kernel: _SmallProduct.Kernel) -> [[Float]] {
        var g = SplitMix64(seed: 5)
        var results: [[Float]] = []
        func draw(_ n: Int) -> [Float] { (0..<n).map { _ in Float.random(in: -1...1, using: &g) } }
        var compared = 0
        // Every row block (AVX2: up to 6 rows; AVX-512: up to 12, 13 rows in two), column counts through each
        // kernel's blocks and tails (AVX2: 64-, 16-, 8- and 1-wide; AVX-512: 128-, 64-, 32-, 16-wide and a masked
        // tail), the network's own shapes (n 384 or 96, k 96 or 384), leading dimensions wider than the matrices.
        for m in 1...13 {
            for (n, k) in [(1, 3), (7, 5), (8, 1), (15, 9), (16, 16), (17, 4), (40, 33), (47, 2), (130, 3), (384, 96), (96, 384)] {
                for accumulate in [false, true] {
                    let lda = k + 2, ldb = n + 3, ldc = n + 1
                    let a = draw(m * lda), b = draw(k * ldb), c = draw(m * ldc)
                    var got = c
                    a.withUnsafeBufferPointer { ap in
                        b.withUnsafeBufferPointer { bp in
                            got.withUnsafeMutableBufferPointer { cp in
                                _SmallProduct.gemm(m: m, n: n, k: k, a: ap.baseAddress!, lda: lda, b: bp.baseAddress!, ldb: ldb,
                                                   accumulate: accumulate, c: cp.baseAddress!, ldc: ldc, kernel: kernel)
                            }
                        }
                    }
                    let (want, scales) = reference(m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc,
                                                   accumulate: accumulate)
                    // Relative to each entry's scale: a BLAS may sum in any order, without fused multiply-adds, and
                    // where the terms cancel the error is a larger share of the value (OpenBLAS's SkylakeX kernel:
                    // 1.2e-5 of the value where it is 1).
                    let worst = zip(got, zip(want, scales)).map { abs($0 - $1.0) / max(1, $1.1) }.max() ?? 0
                    #expect(worst <= 1e-5, "m \(m) n \(n) k \(k) accumulate \(accumulate): \(worst)")
                    // The padding between rows is left as it was.
                    for i in 0..<m { #expect(got[i * ldc + n] == c[i * ldc + n]) }
                    compared += 1
                    results.append(got)
                }
            }
        }
        #expect(compared == 286)
        return results
    }

    @Test("the AVX-512 kernel (where the processor has AVX-512)", .enabled(if: _SmallProduct.Kernel.avx512.isAvailable))
    func avx512() { Self.check(.avx512) }

    @Test("the AVX2 kernel (where the processor has AVX2 and FMA)", .enabled(if: _SmallProduct.Kernel.avx2.isAvailable))
    func avx2() { Self.check(.avx2) }

    @Test("the BLAS, where no kernel is")
    func blas() { Self.check(.blas) }

    /// Both kernels sum each term with one fused multiply-add in order of k, whatever their blocks: a profile learns
    /// the same bits with either.
    @Test("the AVX-512 kernel gives the AVX2 kernel's bits", .enabled(if: _SmallProduct.Kernel.avx512.isAvailable
                                                                     && _SmallProduct.Kernel.avx2.isAvailable))
    func sameBits() {
        let wide = Self.check(.avx512), narrow = Self.check(.avx2)
        #expect(wide.count == narrow.count)
        for (i, (x, y)) in zip(wide, narrow).enumerated() {
            #expect(x.map(\.bitPattern) == y.map(\.bitPattern), "product \(i)")
        }
    }

    @Test("a matrix transposed")
    func transposed() {
        let w: [Float] = [1, 2, 3, 4, 5, 6]  // 2 × 3
        #expect(_SmallProduct.transposed(w, rows: 2, columns: 3) == [1, 4, 2, 5, 3, 6])
        // Shapes across its 16 × 16 tiles (a part tile at either edge, one row, one column) and a recurrent weight's.
        for (rows, columns) in [(37, 21), (1, 40), (40, 1), (16, 32), (384, 96)] {
            let m = (0..<(rows * columns)).map { Float($0) }
            let t = _SmallProduct.transposed(m, rows: rows, columns: columns)
            #expect(t.count == m.count)
            #expect((0..<rows).allSatisfy { i in (0..<columns).allSatisfy { j in t[j * rows + i] == m[i * columns + j] } },
                    "\(rows) × \(columns)")
        }
    }
}
