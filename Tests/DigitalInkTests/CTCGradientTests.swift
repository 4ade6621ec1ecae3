import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `CTCGradient` against PyTorch (`Fixtures/ctc-gradient.json`, written by
/// `python3 -m inkrec_training.ctc_gradient_golden`, checked by `Training/tests/test_ctc_gradient_golden.py`),
/// against finite differences of its own loss, and against `CTCLikelihood`.
@Suite("CTC gradient: PyTorch's loss and gradients, finite differences, CTCLikelihood")
struct CTCGradientTests {
    static func numbers(_ o: Any?) -> [Float] { (o as! [NSNumber]).map(\.floatValue) }
    static func flat(_ o: Any?) -> [Double] { (o as! [[NSNumber]]).flatMap { $0.map(\.doubleValue) } }
    static func matrix(_ o: Any?) -> FeatureMatrix { Fixtures.matrix(o!, columns: (o as! [[NSNumber]])[0].count) }
    static func labels(_ o: Any?) -> [Int] { (o as! [NSNumber]).map(\.intValue) }

    /// Row-wise log-softmax in Double, rounded to Float (what `CTCLikelihood` reads).
    static func logSoftmax(_ x: FeatureMatrix) -> FeatureMatrix {
        var out = x
        for t in 0..<x.rows {
            let row = (0..<x.columns).map { Double(x[t, $0]) }
            let m = row.max()!
            let logZ = m + log(row.reduce(0) { $0 + exp($1 - m) })
            for k in 0..<x.columns { out[t, k] = Float(row[k] - logZ) }
        }
        return out
    }

    /// T × C logits uniform in ±`scale` from a seed.
    static func randomLogits(_ T: Int, _ C: Int, seed: UInt64, scale: Float = 3) -> FeatureMatrix {
        var g = SplitMix(seed: seed)
        return FeatureMatrix(rows: T, columns: C, values: (0..<T * C).map { _ in Float.random(in: -scale...scale, using: &g) })
    }

    @Test("every logits case of the fixture: loss (relative 1e-5) and gradient (1e-5) are PyTorch's; nil where it has no path")
    func fixtureLogits() throws {
        let golden = try Fixtures.json("ctc-gradient.json")
        #expect((golden["note"] as? String)?.contains("ctc_loss") == true)
        var finite = 0
        for c in golden["cases"] as! [[String: Any]] {
            let name = c["name"] as! String
            let x = Self.matrix(c["logits"])
            let labels = Self.labels(c["labels"]), blank = (c["blank"] as! NSNumber).intValue
            let got = CTCGradient.lossAndGradient(labels, logits: x, blank: blank)
            guard let want = (c["loss"] as? NSNumber)?.doubleValue else {
                #expect(got == nil, "\(name): \(String(describing: got?.loss))")
                continue
            }
            guard let got else { Issue.record("\(name): nil"); continue }
            #expect(abs(got.loss - want) <= 1e-5 * max(1, abs(want)), "\(name): loss \(got.loss) vs \(want)")
            let wantGradient = Self.flat(c["gradient"])
            #expect(got.gradient.count == wantGradient.count, "\(name)")
            let worst = zip(got.gradient, wantGradient).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(worst <= 1e-5, "\(name): gradient off by \(worst)")
            finite += 1
        }
        #expect(finite >= 6)
    }

    @Test("every output-layer case of the fixture: loss, weight and bias gradients are PyTorch's (1e-5 relative)")
    func fixtureOutputLayer() throws {
        let golden = try Fixtures.json("ctc-gradient.json")
        let cases = golden["outputLayer"] as! [[String: Any]]
        #expect(!cases.isEmpty)
        for c in cases {
            let name = c["name"] as! String
            let weight = Self.flat(c["weight"]).map(Float.init), bias = Self.numbers(c["bias"])
            guard let got = CTCGradient.outputLayerGradient(
                features: Self.matrix(c["features"]), weight: weight, bias: bias, labels: Self.labels(c["labels"]),
                blank: (c["blank"] as! NSNumber).intValue)
            else { Issue.record("\(name): nil"); continue }
            let want = (c["loss"] as! NSNumber).doubleValue
            #expect(abs(got.loss - want) <= 1e-5 * max(1, abs(want)), "\(name): loss \(got.loss) vs \(want)")
            for (what, g, w) in [("weight", got.weightGradient, Self.flat(c["weightGradient"])),
                                 ("bias", got.biasGradient, (c["biasGradient"] as! [NSNumber]).map(\.doubleValue))] {
                #expect(g.count == w.count, "\(name) \(what)")
                let worst = zip(g, w).map { abs(Double($0) - $1) / max(1, abs($1)) }.max() ?? 0
                #expect(worst <= 1e-5, "\(name): \(what) gradient off by \(worst) (relative)")
            }
        }
    }

    @Test("central differences of the loss (step 1e-3) give the logits gradient within 1e-4", arguments: [
        (7, 5, [1, 2, 2], 0), (9, 6, [3, 1, 4, 1], 0), (5, 4, [Int](), 0), (4, 3, [1, 1, 2], 0), (8, 5, [0, 3, 0], 4),
    ])
    func logitsFiniteDifferences(T: Int, C: Int, labels: [Int], blank: Int) throws {
        let x = Self.randomLogits(T, C, seed: UInt64(T * 100 + C))
        let gradient = try #require(CTCGradient.lossAndGradient(labels, logits: x, blank: blank)).gradient
        let base = x.values.map(Double.init)
        let h = 1e-3
        var worst = 0.0
        for i in base.indices {
            var up = base, down = base
            up[i] += h
            down[i] -= h
            let lossUp = try #require(CTCGradient.lossAndGradient(labels, logits: up, frames: T, classes: C, blank: blank)).loss
            let lossDown = try #require(CTCGradient.lossAndGradient(labels, logits: down, frames: T, classes: C, blank: blank)).loss
            worst = max(worst, abs((lossUp - lossDown) / (2 * h) - Double(gradient[i])))
        }
        #expect(worst < 1e-4, "\(labels): finite differences off by \(worst)")
    }

    @Test("central differences of the loss give the output layer's weight and bias gradients within 1e-4")
    func outputLayerFiniteDifferences() throws {
        // Values on a 1/1024 grid with a step of 1/1024, so that w ± h is exact in Float.
        var g = SplitMix(seed: 41)
        func grid(_ n: Int, _ range: ClosedRange<Int>) -> [Float] { (0..<n).map { _ in Float(Int.random(in: range, using: &g)) / 1024 } }
        let T = 6, H = 3, C = 4, labels = [2, 1, 2]
        let features = FeatureMatrix(rows: T, columns: H, values: grid(T * H, -1536...1536))
        let weight = grid(C * H, -1024...1024), bias = grid(C, -512...512)
        let r = try #require(CTCGradient.outputLayerGradient(features: features, weight: weight, bias: bias, labels: labels))
        #expect(r.weightGradient.count == C * H && r.biasGradient.count == C)
        let h: Float = 1.0 / 1024
        func loss(_ w: [Float], _ b: [Float]) throws -> Double {
            try #require(CTCGradient.outputLayerGradient(features: features, weight: w, bias: b, labels: labels)).loss
        }
        var worst = 0.0
        for i in weight.indices {
            var up = weight, down = weight
            up[i] += h
            down[i] -= h
            worst = max(worst, abs((try loss(up, bias) - loss(down, bias)) / Double(2 * h) - Double(r.weightGradient[i])))
        }
        for i in bias.indices {
            var up = bias, down = bias
            up[i] += h
            down[i] -= h
            worst = max(worst, abs((try loss(weight, up) - loss(weight, down)) / Double(2 * h) - Double(r.biasGradient[i])))
        }
        #expect(worst < 1e-4, "finite differences off by \(worst)")
        // The loss is the logits path's: the same logits (exact here: few products of grid values) give the same loss.
        var logits = FeatureMatrix(rows: T, columns: C)
        for t in 0..<T {
            for c in 0..<C {
                logits[t, c] = bias[c] + (0..<H).reduce(0) { $0 + features[t, $1] * weight[c * H + $1] }
            }
        }
        let direct = try #require(CTCGradient.lossAndGradient(labels, logits: logits))
        #expect(abs(direct.loss - r.loss) < 1e-9 * r.loss)
    }

    @Test("the loss is −CTCLikelihood.logLikelihood of the log-softmaxed logits (relative 1e-5); nil exactly where it is −inf")
    func matchesLikelihood() throws {
        var compared = 0
        for seed in 0..<40 as Range<UInt64> {
            var g = SplitMix(seed: seed)
            let T = Int.random(in: 1...14, using: &g), C = Int.random(in: 2...7, using: &g)
            let labels = (0..<Int.random(in: 0...6, using: &g)).map { _ in Int.random(in: 1..<C, using: &g) }
            let x = Self.randomLogits(T, C, seed: seed &+ 1000, scale: Float.random(in: 0.5...6, using: &g))
            let likelihood = CTCLikelihood.logLikelihood(labels, logProbs: Self.logSoftmax(x))
            let got = CTCGradient.lossAndGradient(labels, logits: x)
            if likelihood == -.infinity {
                #expect(got == nil, "seed \(seed): \(labels) in \(T) frames")
            } else {
                let loss = try #require(got, "seed \(seed)").loss
                #expect(abs(loss + likelihood) <= 1e-5 * max(1, loss), "seed \(seed): \(loss) vs \(-likelihood)")
                compared += 1
            }
        }
        #expect(compared >= 25)
        let golden = try Fixtures.json("ctc-gradient.json")
        for c in golden["cases"] as! [[String: Any]] {
            let x = Self.matrix(c["logits"])
            let labels = Self.labels(c["labels"]), blank = (c["blank"] as! NSNumber).intValue
            let likelihood = CTCLikelihood.logLikelihood(labels, logProbs: Self.logSoftmax(x), blank: blank)
            let loss = CTCGradient.lossAndGradient(labels, logits: x, blank: blank)?.loss
            #expect(loss.map { abs($0 + likelihood) <= 1e-5 * max(1, $0) } ?? (likelihood == -.infinity), "\(c["name"]!)")
        }
    }

    @Test("each row of the logits gradient sums to 0 (softmax − occupation) and lies in [-1, 1]")
    func rowsSumToZero() throws {
        for (seed, labels) in [(1, [1, 2, 2]), (2, [3, 3, 3]), (3, []), (4, [1, 4, 2, 4, 3])] as [(UInt64, [Int])] {
            let T = 12, C = 5
            let x = Self.randomLogits(T, C, seed: seed, scale: 5)
            let r = try #require(CTCGradient.lossAndGradient(labels, logits: x.values.map(Double.init), frames: T, classes: C, blank: 0))
            for t in 0..<T {
                let row = r.gradient[t * C..<(t + 1) * C]
                #expect(abs(row.reduce(0, +)) < 1e-12, "\(labels) frame \(t): \(Array(row))")
                #expect(row.allSatisfy { (-1.0...1.0).contains($0) })
            }
            let f = try #require(CTCGradient.lossAndGradient(labels, logits: x)).gradient
            for t in 0..<T { #expect(abs(f[t * C..<(t + 1) * C].reduce(0, +)) < 1e-6) }
        }
    }

    @Test("a single path: the gradient is softmax minus the path's one-hot rows")
    func singlePath() throws {
        // Labels [1, 1, 2] in 4 frames can only be 1 b 1 2.
        let x = Self.randomLogits(4, 3, seed: 9)
        let r = try #require(CTCGradient.lossAndGradient([1, 1, 2], logits: x))
        let lp = Self.logSoftmax(x)
        let path = [1, 0, 1, 2]
        #expect(abs(r.loss + path.enumerated().reduce(0) { $0 + Double(lp[$1.offset, $1.element]) }) < 1e-5)
        for t in 0..<4 {
            for k in 0..<3 {
                let want = exp(Double(lp[t, k])) - (k == path[t] ? 1 : 0)
                #expect(abs(Double(r.gradient[t * 3 + k]) - want) < 1e-6, "frame \(t) class \(k)")
            }
        }
    }

    @Test("nil where no path exists, for a bad blank and for logits that are not finite; the empty input is the empty path")
    func impossible() {
        let x = Self.randomLogits(3, 4, seed: 5)
        let two = Self.randomLogits(2, 4, seed: 6)
        #expect(CTCGradient.lossAndGradient([1, 1], logits: two) == nil)          // 1 b 1 needs 3 frames
        #expect(CTCGradient.lossAndGradient([1, 2, 3], logits: two) == nil)       // 3 labels, 2 frames
        #expect(CTCGradient.lossAndGradient([1, 1], logits: x) != nil)            // exactly enough frames
        #expect(CTCGradient.lossAndGradient([2, 2, 2], logits: x) == nil)         // needs 5
        #expect(CTCGradient.lossAndGradient([0], logits: x) == nil)               // the blank is no label
        #expect(CTCGradient.lossAndGradient([1, 3], logits: x, blank: 3) == nil)  // another blank, as a label
        #expect(CTCGradient.lossAndGradient([4], logits: x) == nil)               // outside the classes
        #expect(CTCGradient.lossAndGradient([-1], logits: x) == nil)
        #expect(CTCGradient.lossAndGradient([1], logits: x, blank: 4) == nil)     // the blank outside the classes
        #expect(CTCGradient.lossAndGradient([1], logits: FeatureMatrix(rows: 0, columns: 4)) == nil)
        for bad in [Float.nan, .infinity, -.infinity] {
            var y = x
            y[1, 2] = bad
            #expect(CTCGradient.lossAndGradient([1], logits: y) == nil, "\(bad)")
        }
        let empty = CTCGradient.lossAndGradient([], logits: FeatureMatrix(rows: 0, columns: 4))
        #expect(empty?.loss == 0 && empty?.gradient == [])

        let features = FeatureMatrix(rows: 2, columns: 3, values: [0.5, -1, 2, 1, 0.25, -0.5])
        let weight = [Float](repeating: 0.1, count: 12), bias: [Float] = [0, 0.5, -0.5, 1]
        #expect(CTCGradient.outputLayerGradient(features: features, weight: weight, bias: bias, labels: [1, 1]) == nil)
        #expect(CTCGradient.outputLayerGradient(features: features, weight: weight, bias: bias, labels: [0]) == nil)
        #expect(CTCGradient.outputLayerGradient(features: features, weight: weight, bias: bias, labels: [4]) == nil)
        #expect(CTCGradient.outputLayerGradient(features: features, weight: weight, bias: bias, labels: [1, 2]) != nil)
    }
}
