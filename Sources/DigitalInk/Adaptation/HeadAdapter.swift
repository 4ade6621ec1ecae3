import _InkKernels
import Foundation

/// A writer's low-rank change to a CTC network's output layer, and the CTC step that learns it: the
/// adaptation a ``WriterProfile`` holds. Internal value type; the network itself never changes.
///
/// Shapes, with T frames, H the head's input width (``RecognitionNetwork``'s last states) and C classes:
///
///     F   : T × H     the head's input for an ink (frozen network)
///     P   : T × C     the network's log-probabilities for it
///     A   : r × H     B : C × r     d : C            the adapter (r the rank)
///     Z   = F · Aᵀ           : T × r
///     X   = P + Z · Bᵀ + 1·dᵀ : T × C                 adapted logits; log-softmax(X) is what the decoder reads
///
/// Since a log-softmax does not change when a row is shifted, log-softmax(P + ΔX) equals the log-softmax of
/// the shipped head's logits plus ΔX = F · (B A)ᵀ + d: the head's weight moved by the rank-r matrix B A and
/// its bias by d. With G = ∂loss/∂X (``CTCGradient``, T × C) the gradients are
///
///     ∂d = Gᵀ · 1 (C)     ∂B = Gᵀ · Z (C × r)     ∂A = (G · B)ᵀ · F (r × H)
///
/// and the penalty λ (‖B A‖² + ‖d‖²) keeps the change small: ∂B += 2λ (B A) Aᵀ, ∂A += 2λ Bᵀ (B A), ∂d += 2λ d.
/// B and d start at 0 (no change), A from a fixed pseudo-random draw (so that B's gradient is not 0).
/// Cost on top of a recognition: O(T · r · (H + C)) and one more log-softmax of T × C.
struct HeadAdapter: Sendable, Equatable {
    let rank: Int
    let inputs: Int
    let classes: Int
    /// r × H, row-major.
    var a: [Float]
    /// C × r, row-major.
    var b: [Float]
    /// C.
    var d: [Float]

    /// An adapter that changes nothing: B = 0, d = 0, A drawn from a fixed seed (normal / √H).
    init(rank: Int, inputs: Int, classes: Int) {
        precondition(rank > 0 && inputs > 0 && classes > 0, "HeadAdapter: rank \(rank), inputs \(inputs), classes \(classes)")
        self.rank = rank
        self.inputs = inputs
        self.classes = classes
        var rng = SplitMix64(seed: 0x5752_4954_4552)  // "WRITER"
        let scale = 1 / Float(Double(inputs).squareRoot())
        a = (0..<(rank * inputs)).map { _ in Float(rng.nextNormal()) * scale }
        b = [Float](repeating: 0, count: classes * rank)
        d = [Float](repeating: 0, count: classes)
    }

    init(rank: Int, inputs: Int, classes: Int, a: [Float], b: [Float], d: [Float]) {
        precondition(a.count == rank * inputs && b.count == classes * rank && d.count == classes)
        self.rank = rank
        self.inputs = inputs
        self.classes = classes
        self.a = a
        self.b = b
        self.d = d
    }

    /// Z = F · Aᵀ (T × r), in Double.
    private func projected(_ f: FeatureMatrix) -> [Double] {
        let T = f.rows, H = inputs, r = rank
        var z = [Double](repeating: 0, count: T * r)
        f.values.withUnsafeBufferPointer { fv in
            for t in 0..<T {
                for k in 0..<r {
                    var s = 0.0
                    for h in 0..<H { s += Double(fv[t * H + h]) * Double(a[k * H + h]) }
                    z[t * r + k] = s
                }
            }
        }
        return z
    }

    /// The adapted logits X = P + Z · Bᵀ + d (T × C), in Double.
    private func logits(headInput f: FeatureMatrix, logProbs p: FeatureMatrix, z: [Double]) -> [Double] {
        let T = p.rows, C = classes, r = rank
        var x = [Double](repeating: 0, count: T * C)
        for t in 0..<T {
            for c in 0..<C {
                var s = Double(p.values[t * C + c]) + Double(d[c])
                for k in 0..<r { s += z[t * r + k] * Double(b[c * r + k]) }
                x[t * C + c] = s
            }
        }
        return x
    }

    /// The log-probabilities a decoder reads under this adapter: log-softmax(P + Z · Bᵀ + d), T × C, in Float
    /// (two small matrix products through BLAS and a log-softmax per frame: a few percent of a recognition).
    /// `headInput` and `logProbs` are one ink's (``RecognitionNetwork/logProbabilities(_:keepingHeadInput:)``).
    static let avx512 = ink_kernels_avx512_available() != 0

    func apply(headInput f: FeatureMatrix, logProbs p: FeatureMatrix) -> FeatureMatrix {
        precondition(f.columns == inputs && p.columns == classes && f.rows == p.rows,
                     "HeadAdapter: \(f.rows) × \(f.columns) inputs and \(p.rows) × \(p.columns) log-probabilities for \(inputs) → \(classes)")
        let T = p.rows, C = classes, r = rank, H = inputs
        guard T > 0 else { return p }
        var aT = [Float](repeating: 0, count: H * r)  // Aᵀ: H × r
        for k in 0..<r { for h in 0..<H { aT[h * r + k] = a[k * H + h] } }
        var bT = [Float](repeating: 0, count: r * C)  // Bᵀ: r × C
        for c in 0..<C { for k in 0..<r { bT[k * C + c] = b[c * r + k] } }
        var z = [Float](repeating: 0, count: T * r)
        var x = p.values
        x.withUnsafeMutableBufferPointer { xp in
            d.withUnsafeBufferPointer { dp in
                for t in 0..<T { for c in 0..<C { xp[t * C + c] += dp[c] } }
            }
        }
        f.values.withUnsafeBufferPointer { fv in
            aT.withUnsafeBufferPointer { at in
                z.withUnsafeMutableBufferPointer { zp in
                    _BLAS.gemm(m: T, n: r, k: H, a: fv.baseAddress!, lda: H, b: at.baseAddress!, ldb: r, beta: 0,
                               c: zp.baseAddress!, ldc: r)
                }
            }
        }
        z.withUnsafeBufferPointer { zp in
            bT.withUnsafeBufferPointer { bt in
                x.withUnsafeMutableBufferPointer { xp in
                    _BLAS.gemm(m: T, n: C, k: r, a: zp.baseAddress!, lda: r, b: bt.baseAddress!, ldb: C, beta: 1,
                               c: xp.baseAddress!, ldc: C)
                    // The network's own log-softmax where it has AVX-512: the scalar one, an expf per class, was 5% of
                    // a line's recognition in a profile (`perf`, en-US line40), now 0.5%.
                    if Self.avx512 {
                        ink_log_softmax_rows_avx512(xp.baseAddress!, Int32(T), Int32(C))
                    } else {
                        for t in 0..<T { _logSoftmax(xp.baseAddress! + t * C, count: C) }
                    }
                }
            }
        }
        return FeatureMatrix(rows: T, columns: C, values: x)
    }

    /// One example's CTC loss under this adapter and its gradient with respect to A, B and d (the penalty not
    /// included). `nil` where CTC has no path (``CTCGradient/lossAndGradient(_:logits:blank:)``).
    func lossAndGradient(headInput f: FeatureMatrix, logProbs p: FeatureMatrix, labels: [Int], blank: Int = 0)
        -> (loss: Double, a: [Double], b: [Double], d: [Double])?
    {
        let T = p.rows, C = classes, r = rank, H = inputs
        let z = projected(f)
        let x = logits(headInput: f, logProbs: p, z: z)
        guard let g = CTCGradient.lossAndGradient(labels, logits: x, frames: T, classes: C, blank: blank) else { return nil }
        var gd = [Double](repeating: 0, count: C)
        var gb = [Double](repeating: 0, count: C * r)
        var gz = [Double](repeating: 0, count: T * r)  // G · B
        for t in 0..<T {
            for c in 0..<C {
                let gtc = g.gradient[t * C + c]
                if gtc == 0 { continue }
                gd[c] += gtc
                for k in 0..<r {
                    gb[c * r + k] += gtc * z[t * r + k]
                    gz[t * r + k] += gtc * Double(b[c * r + k])
                }
            }
        }
        var ga = [Double](repeating: 0, count: r * H)
        f.values.withUnsafeBufferPointer { fv in
            for t in 0..<T {
                for k in 0..<r {
                    let w = gz[t * r + k]
                    if w == 0 { continue }
                    for h in 0..<H { ga[k * H + h] += w * Double(fv[t * H + h]) }
                }
            }
        }
        return (g.loss, ga, gb, gd)
    }

    /// λ (‖B A‖² + ‖d‖²) and its gradient with respect to A, B and d.
    func penalty(_ lambda: Double) -> (value: Double, a: [Double], b: [Double], d: [Double]) {
        let C = classes, r = rank, H = inputs
        var m = [Double](repeating: 0, count: C * H)  // B A
        for c in 0..<C {
            for k in 0..<r {
                let bck = Double(b[c * r + k])
                if bck == 0 { continue }
                for h in 0..<H { m[c * H + h] += bck * Double(a[k * H + h]) }
            }
        }
        var value = 0.0
        for v in m { value += v * v }
        for v in d { value += Double(v) * Double(v) }
        var ga = [Double](repeating: 0, count: r * H)
        var gb = [Double](repeating: 0, count: C * r)
        for c in 0..<C {
            for k in 0..<r {
                var s = 0.0
                for h in 0..<H {
                    let mch = m[c * H + h]
                    s += mch * Double(a[k * H + h])
                    ga[k * H + h] += 2 * lambda * Double(b[c * r + k]) * mch
                }
                gb[c * r + k] = 2 * lambda * s
            }
        }
        return (lambda * value, ga, gb, d.map { 2 * lambda * Double($0) })
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): the fixed pseudo-random draws of an adapter's start, the same on
/// every platform (and the tests' generator of data).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    mutating func nextUnit() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Standard normal (Box–Muller, one of the pair).
    mutating func nextNormal() -> Double {
        let u = nextUnit(), v = nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
