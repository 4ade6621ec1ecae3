import Foundation
import Testing
import _InkKernels
@_spi(Engine) @testable import DigitalInk

/// The 8-bit kernels against `Training/inkrec_training/quantize.py` (fixture written by
/// `python3 -m inkrec_training latin export quantize --kernel-golden`): the quantized inputs, the integer sums and the outputs
/// must be exactly the reference's, with the portable kernels and (where the CPU has them) AVX2, NEON and
/// VNNI. (NEON runs on arm64 only: `make test-arm` checks its C kernels under emulation on x86.)
@Suite("8-bit kernels reproduce the PyTorch reference exactly")
struct Int8KernelTests {
    /// The 8-bit kernels this CPU runs.
    static let kernels: [_Int8Kernel] = _Int8Kernel.allCases.filter(\.isAvailable)

    static func ints(_ any: Any?) -> [Int] { (any as! [Any]).map { ($0 as! NSNumber).intValue } }
    static func floats(_ any: Any?) -> [Float] { (any as! [Any]).map { ($0 as! NSNumber).floatValue } }

    @Test("projections: quantized rows, scales and outputs bit for bit", arguments: kernels)
    func projections(kernel: _Int8Kernel) throws {
        let golden = try Fixtures.json("int8-kernels.json")
        let cases = golden["projections"] as! [[String: Any]]
        #expect(cases.count >= 2)
        for c in cases {
            let m = (c["m"] as! NSNumber).intValue, k = (c["k"] as! NSNumber).intValue, n = (c["n"] as! NSNumber).intValue
            let w = Self.ints(c["weights"]).map { Int8($0) }
            let map = _QuantizedAffineMap(weights: w, weightScale: Self.floats(c["scale"]), inputs: k, outputs: n,
                                          bias: Self.floats(c["bias"]), kernel: kernel)
            #expect(map.kernel == kernel && map.usesVNNI == (kernel == .vnni))
            let x = Self.floats(c["x"])
            // The quantized rows and their scales.
            let ldq = map.quantizedRowBytes
            var q = [UInt8](repeating: 0, count: m * ldq)
            var s = [Float](repeating: 0, count: m)
            x.withUnsafeBufferPointer { xb in ink_q8_quantize_rows(xb.baseAddress!, Int32(m), Int32(k), Int32(k), &q, Int32(ldq), &s) }
            let xq = Self.ints(c["xq"])
            for r in 0..<m {
                for i in 0..<k { #expect(Int(q[r * ldq + i]) - 128 == xq[r * k + i]) }
                for i in k..<ldq { #expect(q[r * ldq + i] == 128) }
            }
            #expect(s == Self.floats(c["xscale"]))
            if kernel == .vnni {  // the AVX-512 quantizer gives the same bytes and scales
                var q2 = [UInt8](repeating: 0, count: m * ldq)
                var s2 = [Float](repeating: 0, count: m)
                x.withUnsafeBufferPointer { xb in ink_q8_quantize_rows_avx512(xb.baseAddress!, Int32(m), Int32(k), Int32(k), &q2, Int32(ldq), &s2) }
                #expect(q2 == q && s2 == s)
            }
            if kernel == .avx2 || kernel == .neon {  // the AVX2 and NEON quantizers give the same values and scales
                let (q2, s2) = Self.quantizedPairs(kernel, x, rows: m, inputs: k)
                #expect(s2 == s)
                for r in 0..<m { for i in 0..<k { #expect(q2[r * ((k + 1) / 2 * 2) + i] == xq[r * k + i]) } }
            }
            var y = [Float](repeating: .nan, count: m * n)
            x.withUnsafeBufferPointer { xb in y.withUnsafeMutableBufferPointer { yb in map.apply(xb.baseAddress!, rows: m, output: yb.baseAddress!) } }
            let expected = Self.floats(c["y"])
            #expect(y == expected, "\(m)×\(k)×\(n): \(zip(y, expected).filter { $0 != $1 }.count) outputs differ")
        }
    }

    @Test("the recurrent product: integer sums and gates bit for bit", arguments: kernels)
    func recurrent(kernel: _Int8Kernel) throws {
        let golden = try Fixtures.json("int8-kernels.json")
        let c = golden["recurrent"] as! [String: Any]
        let H = (c["hidden"] as! NSNumber).intValue
        let w = Self.ints(c["weights"]).map { Int8($0) }
        let rscale = Self.floats(c["scale"]).map { $0 / 127 }
        let h = Self.floats(c["h"])
        var g = Self.floats(c["gates"])
        let expected = Self.floats(c["result"])
        switch kernel {
        case .vnni:
            // The VNNI step runs the cell after the product; compare its gates by running the step with a
            // state whose cell result we do not read: the gates buffer holds the product's result.
            let packed = _Int8Kernels.pack(w, outputs: 4 * H, inputs: H)
            var hh = h, cc = [Float](repeating: 0, count: H), out = [Float](repeating: 0, count: H)
            ink_lstm_step_q8_vnni(packed.weights, packed.correction, rscale, Int32(H), 1, &g, &hh, &cc, &out)
        case .avx2, .neon:  // likewise
            let packed = _Int8Kernels.packPairs(w, outputs: 4 * H, inputs: H)
            var hh = h, cc = [Float](repeating: 0, count: H), out = [Float](repeating: 0, count: H)
            Self.pairStep(kernel)(packed, rscale, Int32(H), 1, &g, &hh, &cc, &out)
        case .portable:
            ink_lstm_recurrent_q8_portable(w, rscale, Int32(H), h, &g)
        }
        #expect(g == expected, "\(zip(g, expected).filter { $0 != $1 }.count) of \(g.count) gates differ")
    }

    /// The kernels over pair-packed weights (`ink_q8_pack_pairs`) this CPU runs: AVX2 on x86-64, NEON on arm64.
    static let pairKernels: [_Int8Kernel] = [.avx2, .neon].filter(\.isAvailable)

    /// Rows quantized by `ink_q8_quantize_rows_s16_avx2` or `ink_q8_quantize_rows_s8_neon` (rows of k rounded
    /// up to 2; pads 99 before) and their scales.
    static func quantizedPairs(_ kernel: _Int8Kernel, _ x: [Float], rows m: Int, inputs k: Int) -> (values: [Int], scales: [Float]) {
        let ldq = (k + 1) / 2 * 2
        var s = [Float](repeating: 0, count: m)
        if kernel == .neon {
            var q = [Int8](repeating: 99, count: m * ldq)
            x.withUnsafeBufferPointer { xb in ink_q8_quantize_rows_s8_neon(xb.baseAddress!, Int32(m), Int32(k), Int32(k), &q, Int32(ldq), &s) }
            return (q.map(Int.init), s)
        }
        var q = [Int16](repeating: 99, count: m * ldq)
        x.withUnsafeBufferPointer { xb in ink_q8_quantize_rows_s16_avx2(xb.baseAddress!, Int32(m), Int32(k), Int32(k), &q, Int32(ldq), &s) }
        return (q.map(Int.init), s)
    }

    /// `ink_q8_gemm_avx2` or `ink_q8_gemm_neon` over rows of values `q` (rows of k rounded up to 2).
    static func pairGemm(_ kernel: _Int8Kernel, m: Int, n: Int, k: Int, q: [Int], scale: [Float], packed: [Int8], wscale: [Float],
                         bias: [Float], y: inout [Float]) {
        let ldq = Int32((k + 1) / 2 * 2)
        if kernel == .neon {
            ink_q8_gemm_neon(Int32(m), Int32(n), Int32(k), q.map { Int8($0) }, ldq, scale, packed, wscale, bias, &y, Int32(n))
        } else {
            ink_q8_gemm_avx2(Int32(m), Int32(n), Int32(k), q.map { Int16($0) }, ldq, scale, packed, wscale, bias, &y, Int32(n))
        }
    }

    /// `ink_lstm_step_q8_avx2` or `ink_lstm_step_q8_neon` (the same arguments).
    static func pairStep(_ kernel: _Int8Kernel) -> @convention(c) (UnsafePointer<Int8>?, UnsafePointer<Float>?, Int32, Int32,
                                                                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                                                                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) -> Void {
        kernel == .neon ? ink_lstm_step_q8_neon : ink_lstm_step_q8_avx2
    }

    /// Random shapes (m rows × k inputs × n outputs): k and n also off the kernels' multiples of 2, 8, 24 (3
    /// panels), 32; m off the 4-row blocks; the network's shapes (k 384 and 192 by n 768 and 261).
    static let shapes: [(m: Int, k: Int, n: Int)] = [
        (1, 1, 1), (2, 2, 1), (3, 5, 7), (5, 17, 9), (7, 33, 25), (4, 96, 384), (9, 100, 261), (6, 191, 23),
        (13, 385, 770), (1, 4, 3), (36, 384, 768), (11, 192, 261), (4, 63, 47), (8, 31, 8), (3, 1000, 17),
    ]

    /// int8 weights over the whole range (−128 and 127 included) and rows of floats: a zero row, rows with
    /// values on the half-code boundaries (round to even), rows of mixed magnitude.
    static func randomProblem(m: Int, k: Int, n: Int, seed: UInt64) -> (w: [Int8], x: [Float]) {
        var rng = SplitMix(seed: seed)
        var w = (0..<(n * k)).map { _ in Int8(truncatingIfNeeded: rng.next()) }
        w[0] = -128
        if w.count > 1 { w[w.count - 1] = 127 }
        var x = (0..<(m * k)).map { _ in Float.random(in: -3...3, using: &rng) }
        if m > 1 { for i in 0..<k { x[k + i] = 0 } }
        if m > 2 { for i in 0..<k { x[2 * k + i] = (Float(Int.random(in: -126...126, using: &rng)) + 0.5) / 127 } }
        if m > 2, k > 0 { x[2 * k] = 1 }  // scale 1/127 exactly: every other value on a boundary
        return (w, x)
    }

    @Test("AVX2 and NEON: the quantizer, the integer sums and the outputs are the portable kernels' on random shapes",
          .enabled(if: !pairKernels.isEmpty), arguments: pairKernels)
    func pairProjections(kernel: _Int8Kernel) {
        for (index, shape) in Self.shapes.enumerated() {
            let (m, k, n) = shape
            let (w, x) = Self.randomProblem(m: m, k: k, n: n, seed: 100 + UInt64(index))
            // The portable quantizer's codes and scales.
            let ldq = (k + 3) / 4 * 4
            var q = [UInt8](repeating: 0, count: m * ldq)
            var s = [Float](repeating: 0, count: m)
            x.withUnsafeBufferPointer { xb in ink_q8_quantize_rows(xb.baseAddress!, Int32(m), Int32(k), Int32(k), &q, Int32(ldq), &s) }
            let (q2, s2) = Self.quantizedPairs(kernel, x, rows: m, inputs: k)
            let ld2 = (k + 1) / 2 * 2
            #expect(s2 == s, "\(m)×\(k)×\(n): scales")
            var codes: [Int] = []
            for r in 0..<m {
                for i in 0..<k { codes.append(Int(q[r * ldq + i]) - 128) }
                #expect((0..<k).allSatisfy { q2[r * ld2 + $0] == codes[r * k + $0] }, "\(m)×\(k)×\(n): row \(r)'s codes")
                #expect((k..<ld2).allSatisfy { q2[r * ld2 + $0] == 0 }, "\(m)×\(k)×\(n): row \(r)'s pad")
            }
            // The integer sums, exact in Swift; the kernel with every scale 1 and bias 0 returns them as floats
            // (exact: |sum| ≤ 128 · 127 · 1000 < 2^24).
            let packed = _Int8Kernels.packPairs(w, outputs: n, inputs: k)
            #expect(packed.count == (n + 7) / 8 * 8 * ld2)
            let ones = [Float](repeating: 1, count: max(m, n)), zeros = [Float](repeating: 0, count: n)
            var sums = [Float](repeating: .nan, count: m * n)
            Self.pairGemm(kernel, m: m, n: n, k: k, q: q2, scale: ones, packed: packed, wscale: ones, bias: zeros, y: &sums)
            var wrong = 0
            for r in 0..<m {
                for j in 0..<n {
                    var acc = 0
                    for i in 0..<k { acc += codes[r * k + i] * Int(w[j * k + i]) }
                    if sums[r * n + j] != Float(acc) { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(m)×\(k)×\(n): \(wrong) of \(m * n) integer sums differ")
            // Through the map, with scales and biases: the portable map's outputs bit for bit.
            var rng = SplitMix(seed: 900 + UInt64(index))
            let scale = (0..<n).map { _ in Float.random(in: 1e-4...2e-2, using: &rng) }
            let bias = (0..<n).map { _ in Float.random(in: -1...1, using: &rng) }
            var outputs: [[Float]] = []
            for mapKernel in [_Int8Kernel.portable, kernel] {
                let map = _QuantizedAffineMap(weights: w, weightScale: scale, inputs: k, outputs: n, bias: bias, kernel: mapKernel)
                #expect(map.kernel == mapKernel)
                // One spare row past the end: the kernel must not write beyond m × n.
                var y = [Float](repeating: .nan, count: (m + 1) * n)
                x.withUnsafeBufferPointer { xb in y.withUnsafeMutableBufferPointer { map.apply(xb.baseAddress!, rows: m, output: $0.baseAddress!) } }
                #expect(y[(m * n)...].allSatisfy { $0.isNaN }, "\(m)×\(k)×\(n): written past the output")
                outputs.append(Array(y[..<(m * n)]))
            }
            let differ = zip(outputs[0], outputs[1]).filter { $0 != $1 }.count
            #expect(differ == 0, "\(m)×\(k)×\(n): \(differ) outputs differ from the portable kernel's")
        }
    }

    @Test("AVX2 and NEON: the recurrent step's gates are the portable product's bit for bit, its cell the Swift cell's within 1e-6 (NEON: exactly)",
          .enabled(if: !pairKernels.isEmpty), arguments: pairKernels, [8, 16, 24, 40, 96, 104, 192])
    func pairRecurrent(kernel: _Int8Kernel, hidden H: Int) {
        let step = Self.pairStep(kernel)
        let G = 4 * H
        var rng = SplitMix(seed: 7 + UInt64(H))
        var w = (0..<(G * H)).map { _ in Int8(truncatingIfNeeded: rng.next()) }
        w[0] = -128
        w[1] = 127
        // h: in (−1, 1) as the cell makes it, a few on the half-code boundaries and beyond ±1 (clamped to ±127).
        var h = (0..<H).map { _ in Float.random(in: -1...1, using: &rng) }
        h[0] = 0.5 / 127
        h[1] = -2.5 / 127
        h[2] = 1.25
        h[3] = -1.5
        let packed = _Int8Kernels.packPairs(w, outputs: G, inputs: H)
        // The integer sums: rscale 1 and gates 0 on entry leave float(Σ_k round(h[k] · 127) · W[j, k]).
        var g = [Float](repeating: 0, count: G)
        var hh = h, c = [Float](repeating: 0, count: H), out = [Float](repeating: 0, count: H)
        step(packed, [Float](repeating: 1, count: G), Int32(H), 1, &g, &hh, &c, &out)
        let hq = h.map { max(-127, min(127, Int(($0 * 127).rounded(.toNearestOrEven)))) }
        var wrong = 0
        for j in 0..<G {
            var acc = 0
            for k in 0..<H { acc += hq[k] * Int(w[j * H + k]) }
            if g[j] != Float(acc) { wrong += 1 }
        }
        #expect(wrong == 0, "H \(H): \(wrong) of \(G) integer sums differ")
        // A step with scales, gates on entry and a state: the portable product and the Swift cell.
        let rscale = (0..<G).map { _ in Float.random(in: 1e-4...2e-2, using: &rng) / 127 }
        let g0 = (0..<G).map { _ in Float.random(in: -2...2, using: &rng) }
        let c0 = (0..<H).map { _ in Float.random(in: -2...2, using: &rng) }
        var gp = g0, hp = h, cp = c0, op = [Float](repeating: 0, count: H)
        ink_lstm_recurrent_q8_portable(w, rscale, Int32(H), h, &gp)
        gp.withUnsafeMutableBufferPointer { gb in
            hp.withUnsafeMutableBufferPointer { hb in
                cp.withUnsafeMutableBufferPointer { cb in
                    op.withUnsafeMutableBufferPointer { ob in
                        _lstmCell(gb.baseAddress!, h: hb.baseAddress!, c: cb.baseAddress!, out: ob.baseAddress!, count: H)
                    }
                }
            }
        }
        var ga = g0, ha = h, ca = c0, oa = [Float](repeating: 0, count: H)
        step(packed, rscale, Int32(H), 1, &ga, &ha, &ca, &oa)
        #expect(ga == gp, "H \(H): \(zip(ga, gp).filter { $0 != $1 }.count) of \(G) gates differ")
        let worst = zip(ha + ca + oa, hp + cp + op).map { abs($0 - $1) }.max()!
        #expect(worst < 1e-6, "H \(H): the cell differs by \(worst)")
        if kernel == .neon {  // the Swift cell's operations, unfused: its values exactly
            #expect(ha == hp && ca == cp && oa == op, "H \(H): the NEON cell differs by \(worst)")
        }
        #expect(oa == ha)
        // The first step (with_recurrent 0) leaves the gates as they are.
        var gf = g0, hf = h, cf = c0, of = [Float](repeating: 0, count: H)
        step(packed, rscale, Int32(H), 0, &gf, &hf, &cf, &of)
        #expect(gf == g0)
    }

    @Test("an 8-bit weights file is rejected where floats are expected, and scales must be positive")
    func rejectsMismatchedTensors() throws {
        let header = #"{"w":{"dtype":"I8","shape":[2,2],"data_offsets":[0,4]}}"#
        var bytes = Data()
        var n = UInt64(header.utf8.count).littleEndian
        bytes.append(Data(bytes: &n, count: 8))
        bytes.append(Data(header.utf8))
        bytes.append(Data([1, 2, 3, 4]))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("int8-\(UUID().uuidString).safetensors")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try SafeTensorsFile(contentsOf: url)
        #expect(try file.int8s("w", shape: [2, 2]) == [1, 2, 3, 4])
        #expect(throws: DigitalInkError.self) { try file.floats("w", shape: [2, 2]) }
        #expect(throws: DigitalInkError.self) { try file.int8s("w", shape: [4]) }
    }
}
