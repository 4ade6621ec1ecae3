import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `_FloatLSTMNetwork`'s backpropagation through time against PyTorch (`Fixtures/lstm-gradient.json`, written by
/// `python3 -m inkrec_training.lstm_gradient_golden`, checked by `Training/tests/test_lstm_gradient_golden.py`), against
/// finite differences of its own loss, and its forward against the engine's on a shipped network.
@Suite("LSTM gradient through time: PyTorch's loss and gradients, finite differences, the engine's forward")
struct LSTMGradientTests {
    static func flat(_ o: Any?) -> [Float] {
        if let m = o as? [[NSNumber]] { return m.flatMap { $0.map(\.floatValue) } }
        return (o as! [NSNumber]).map(\.floatValue)
    }

    /// The network of a fixture case, with each LSTM weight changed by its LoRA pair (W + b a).
    static func network(_ c: [String: Any]) -> _FloatLSTMNetwork {
        let w = c["weights"] as! [String: Any], lora = c["lora"] as! [String: [String: Any]]
        let H = (c["hidden"] as! NSNumber).intValue, L = (c["layers"] as! NSNumber).intValue
        let reduceAfter = (c["reduceAfter"] as! NSNumber).intValue, C = (c["numClasses"] as! NSNumber).intValue
        func effective(_ name: String) -> [Float] {
            var m = flat(w[name])
            if let pair = lora[name] {
                let a = pair["a"] as! [[NSNumber]], b = pair["b"] as! [[NSNumber]]
                let r = a.count, columns = a[0].count
                for i in 0..<b.count { for j in 0..<columns {
                    var s: Float = 0
                    for k in 0..<r { s += b[i][k].floatValue * a[k][j].floatValue }
                    m[i * columns + j] += s
                } }
            }
            return m
        }
        var layers: [_FloatLSTMNetwork.Layer] = []
        var inSize = (c["inputDim"] as! NSNumber).intValue
        for l in 0..<L {
            func direction(_ sfx: String) -> _FloatLSTMNetwork.Direction {
                let p = "lstms.\(l)."
                return .init(inputWeights: effective(p + "weight_ih_l0" + sfx), recurrentWeights: effective(p + "weight_hh_l0" + sfx),
                             bias: zip(flat(w[p + "bias_ih_l0" + sfx]), flat(w[p + "bias_hh_l0" + sfx])).map { $0 + $1 })
            }
            layers.append(.init(inputSize: inSize, forward: direction(""), backward: direction("_reverse")))
            inSize = 2 * H * (reduceAfter == l + 1 ? 2 : 1)
        }
        return _FloatLSTMNetwork(hidden: H, reduceAfter: reduceAfter, classes: C, layers: layers,
                                 headWeight: flat(w["head.weight"]), headBias: flat(w["head.bias"]))
    }

    static func worst(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "\(a.count) vs \(b.count)")
        return zip(a, b).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
    }

    /// The weights' gradients in the order of an adapter's pairs (``LSTMAdapter/pairs``): every layer's input and
    /// recurrent weight, forward then backward, then the head's.
    static func weightGradients(_ g: _FloatLSTMNetwork.Gradients) -> [[Float]] {
        g.layers.flatMap { [$0.forward.inputWeights, $0.forward.recurrentWeights, $0.backward.inputWeights, $0.backward.recurrentWeights] }
            + [g.headWeight]
    }

    /// A fixture case's name, network, features (T rows), labels and blank; `other` holds its otherLabels where it has
    /// them: the loss of either text (a lone letter's either case, CTCGradient.union).
    static func inputs(_ c: [String: Any]) -> (name: String, net: _FloatLSTMNetwork, features: [Float], T: Int, labels: [Int],
                                               other: [[Int]], blank: Int) {
        (c["name"] as! String, network(c), flat(c["features"]), (c["features"] as! [Any]).count,
         (c["labels"] as! [NSNumber]).map(\.intValue), (c["otherLabels"] as? [NSNumber]).map { [$0.map(\.intValue)] } ?? [],
         (c["blank"] as! NSNumber).intValue)
    }

    @Test("every case of the fixture (one of them either of two texts): the loss and the gradient of every weight, bias and LoRA pair are PyTorch's (1e-4)")
    func fixture() throws {
        let golden = try Fixtures.json("lstm-gradient.json")
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 4 && cases.contains { $0["otherLabels"] != nil })
        for c in cases {
            let (name, net, features, T, labels, other, blank) = Self.inputs(c)
            guard let (loss, g) = net.lossAndGradients(features: features, frames: T, anyOf: [labels] + other, blank: blank) else {
                Issue.record("\(name): no loss"); continue
            }
            let want = (c["loss"] as! NSNumber).doubleValue
            #expect(abs(loss - want) <= 1e-4 * max(1, abs(want)), "\(name): loss \(loss) vs \(want)")
            #expect(net.forward(features, frames: T).outputFrames == (c["outputFrames"] as! NSNumber).intValue, "\(name)")
            let grads = c["gradients"] as! [String: Any], lora = c["lora"] as! [String: [String: Any]]
            let loraGrads = c["loraGradients"] as! [String: [String: Any]]
            var checked = 0
            for (l, layer) in g.layers.enumerated() {
                for (sfx, d) in [("", layer.forward), ("_reverse", layer.backward)] {
                    let p = "lstms.\(l)."
                    for (kind, got) in [("weight_ih_l0", d.inputWeights), ("weight_hh_l0", d.recurrentWeights)] {
                        let key = p + kind + sfx
                        #expect(Self.worst(got, Self.flat(grads[key])) <= 1e-4, "\(name) \(key)")
                        // The LoRA pair's gradient by the chain rule: δb = δW aᵀ, δa = bᵀ δW.
                        let a = lora[key]!["a"] as! [[NSNumber]], b = lora[key]!["b"] as! [[NSNumber]]
                        let r = a.count, n = a[0].count, m = b.count
                        var da = [Float](repeating: 0, count: r * n), db = [Float](repeating: 0, count: m * r)
                        for i in 0..<m { for j in 0..<n { for k in 0..<r {
                            db[i * r + k] += got[i * n + j] * a[k][j].floatValue
                            da[k * n + j] += b[i][k].floatValue * got[i * n + j]
                        } } }
                        #expect(Self.worst(da, Self.flat(loraGrads[key]!["a"])) <= 1e-4, "\(name) \(key) a")
                        #expect(Self.worst(db, Self.flat(loraGrads[key]!["b"])) <= 1e-4, "\(name) \(key) b")
                        checked += 1
                    }
                    #expect(Self.worst(d.bias, Self.flat(grads[p + "bias_ih_l0" + sfx])) <= 1e-4, "\(name) bias \(l)\(sfx)")
                }
            }
            #expect(checked == 4 * net.layers.count)
            #expect(Self.worst(g.headWeight, Self.flat(grads["head.weight"])) <= 1e-4, "\(name) head.weight")
            #expect(Self.worst(g.headBias, Self.flat(grads["head.bias"])) <= 1e-4, "\(name) head.bias")
        }
    }

    @Test("an adapter's gradient taken from δW's factors (never forming δW) matches PyTorch's LoRA gradients and the head's projected δW")
    func projectedGradients() throws {
        let cases = try Fixtures.json("lstm-gradient.json")["cases"] as! [[String: Any]]
        for c in cases {
            let (name, net, features, T, labels, other, blank) = Self.inputs(c)
            let lora = c["lora"] as! [String: [String: Any]], loraGrads = c["loraGradients"] as! [String: [String: Any]]
            let keys = net.layers.indices.flatMap { l in
                ["weight_ih_l0", "weight_hh_l0", "weight_ih_l0_reverse", "weight_hh_l0_reverse"].map { "lstms.\(l).\($0)" }
            }
            var adapter = LSTMAdapter(network: net, rank: (c["rank"] as! NSNumber).intValue, seed: 3)
            for (k, key) in keys.enumerated() {
                adapter.pairs[k].a = Self.flat(lora[key]!["a"])
                adapter.pairs[k].b = Self.flat(lora[key]!["b"])
            }
            let head = adapter.pairs.count - 1
            adapter.pairs[head].b = adapter.pairs[head].a.indices.prefix(adapter.pairs[head].b.count).map { Float($0 % 7) / 7 - 0.4 }
            let item = _FloatLSTMNetwork.BatchItem(features: features, frames: T, labelings: [labels] + other)
            let full = try #require(net.lossAndGradients(batch: [item], blank: blank))
            let projected = try #require(net.lossAndGradients(batch: [item], blank: blank, adapter: adapter))
            #expect(projected.losses == full.losses, "\(name)")
            #expect(projected.gradients.headWeight.isEmpty && projected.gradients.layers.allSatisfy { $0.forward.inputWeights.isEmpty })
            for (k, key) in keys.enumerated() {
                #expect(Self.worst(projected.gradients.adapter[k].a, Self.flat(loraGrads[key]!["a"])) <= 1e-4, "\(name) \(key) a")
                #expect(Self.worst(projected.gradients.adapter[k].b, Self.flat(loraGrads[key]!["b"])) <= 1e-4, "\(name) \(key) b")
            }
            // The head: Bᵀ δW and δW Aᵀ of the full gradient, written out.
            let p = adapter.pairs[head], r = adapter.rank, dw = full.gradients.headWeight
            var da = [Float](repeating: 0, count: r * p.columns), db = [Float](repeating: 0, count: p.rows * r)
            for i in 0..<p.rows { for j in 0..<p.columns { for k in 0..<r {
                db[i * r + k] += dw[i * p.columns + j] * p.a[k * p.columns + j]
                da[k * p.columns + j] += p.b[i * r + k] * dw[i * p.columns + j]
            } } }
            #expect(Self.worst(projected.gradients.adapter[head].a, da) <= 1e-4, "\(name) head a")
            #expect(Self.worst(projected.gradients.adapter[head].b, db) <= 1e-4, "\(name) head b")
            #expect(da.contains { $0 != 0 } && db.contains { $0 != 0 })
            #expect(projected.gradients.headBias == full.gradients.headBias)
        }
    }

    /// A random 2-layer network (input 3, H 4, reduction after layer 1, 6 classes).
    static func randomNetwork(seed: UInt64) -> _FloatLSTMNetwork {
        var g = SplitMix(seed: seed)
        func draw(_ n: Int, _ s: Float = 0.5) -> [Float] { (0..<n).map { _ in Float.random(in: -s...s, using: &g) } }
        let H = 4
        func direction(_ inSize: Int) -> _FloatLSTMNetwork.Direction { .init(inputWeights: draw(4 * H * inSize), recurrentWeights: draw(4 * H * H), bias: draw(4 * H)) }
        return _FloatLSTMNetwork(hidden: H, reduceAfter: 1, classes: 6,
                                 layers: [.init(inputSize: 3, forward: direction(3), backward: direction(3)),
                                          .init(inputSize: 4 * H, forward: direction(4 * H), backward: direction(4 * H))],
                                 headWeight: draw(6 * 2 * H, 1), headBias: draw(6))
    }

    @Test("finite differences of the loss agree with the gradient of recurrent, input and head weights (2%)")
    func finiteDifferences() throws {
        var net = Self.randomNetwork(seed: 7)
        var g = SplitMix(seed: 8)
        let T = 11
        let x = (0..<T * 3).map { _ in Float.random(in: -1...1, using: &g) }
        let labels = [2, 5, 5, 1]
        let (_, grads) = try #require(net.lossAndGradients(features: x, frames: T, labels: labels))
        func loss(_ n: _FloatLSTMNetwork) -> Double { n.lossAndGradients(features: x, frames: T, labels: labels)!.loss }
        let eps: Float = 1e-2
        var compared = 0
        for index in [0, 5, 17, 40] {
            // W_hh of layer 0's backward direction, W_ih of layer 1's forward one, the head.
            for which in 0..<3 {
                var up = net, down = net
                switch which {
                case 0: up.layers[0].backward.recurrentWeights[index] += eps; down.layers[0].backward.recurrentWeights[index] -= eps
                case 1: up.layers[1].forward.inputWeights[index] += eps; down.layers[1].forward.inputWeights[index] -= eps
                default: up.headWeight[index] += eps; down.headWeight[index] -= eps
                }
                let numeric = (loss(up) - loss(down)) / Double(2 * eps)
                let analytic = Double([grads.layers[0].backward.recurrentWeights, grads.layers[1].forward.inputWeights,
                                       grads.headWeight][which][index])
                #expect(abs(numeric - analytic) <= 0.02 * max(0.05, abs(analytic)), "weight \(which) [\(index)]: \(numeric) vs \(analytic)")
                compared += 1
            }
        }
        net.headBias[0] += 0  // (the network itself is not changed by the checks)
        #expect(compared == 12)
    }

    @Test("a batch (sequences of odd, even and one frame, one of two texts, one CTC cannot align) gives each sequence's loss alone and the weighted sum of their gradients")
    func batchIsTheSumOfItsSequences() throws {
        let net = Self.randomNetwork(seed: 31)
        var g = SplitMix(seed: 32)
        let cases: [(frames: Int, labelings: [[Int]], weight: Float)] = [
            (9, [[1, 2]], 0.5), (14, [[3, 3, 4]], 1), (1, [[5]], 2), (12, [[2], [3]], 0.25), (7, [[1, 2, 3, 4, 5, 1, 2, 3]], 1), (10, [[4, 1]], 0.75),
        ]
        let items = cases.map { c in
            _FloatLSTMNetwork.BatchItem(features: (0..<c.frames * 3).map { _ in Float.random(in: -1...1, using: &g) }, frames: c.frames,
                                        labelings: c.labelings, weight: c.weight)
        }
        let (losses, batch) = try #require(net.lossAndGradients(batch: items))
        #expect(losses.count == items.count && losses[4] == nil)  // 8 labels in ⌈7/2⌉ frames: no alignment
        var sum: [[Float]]? = nil
        for (item, loss) in zip(items, losses) {
            let alone = net.lossAndGradients(features: item.features, frames: item.frames, anyOf: item.labelings)
            #expect((alone == nil) == (loss == nil))
            guard let alone, let loss else { continue }
            #expect(abs(alone.loss - loss) <= 1e-5 * max(1, abs(loss)))
            let parts = (Self.weightGradients(alone.gradients) + [alone.gradients.headBias]).map { $0.map { $0 * item.weight } }
            sum = sum.map { zip($0, parts).map { a, b in zip(a, b).map { $0 + $1 } } } ?? parts
        }
        let got = Self.weightGradients(batch) + [batch.headBias]
        let want = try #require(sum)
        #expect(got.count == want.count)
        for (k, (a, b)) in zip(got, want).enumerated() {
            #expect(Self.worst(a, b) <= 1e-5, "weight \(k): \(Self.worst(a, b))")
        }
        // Every layer's bias gradient too (weightGradients holds only the weights).
        for l in 0..<2 {
            let alone = items.indices.compactMap { i in net.lossAndGradients(features: items[i].features, frames: items[i].frames, anyOf: items[i].labelings)
                .map { ($0.gradients.layers[l].backward.bias, items[i].weight) } }
            let want = alone.dropFirst().reduce(alone[0].0.map { $0 * alone[0].1 }) { s, e in zip(s, e.0).map { $0 + $1 * e.1 } }
            #expect(Self.worst(batch.layers[l].backward.bias, want) <= 1e-5, "layer \(l) bias")
        }
        #expect(net.lossAndGradients(batch: [items[4]]) == nil)
        // Arrays reused from a pool (as a training run reuses them from step to step) give the same numbers, bit for
        // bit, after another batch of other shapes went through the same pool.
        func all(_ g: _FloatLSTMNetwork.Gradients) -> [[Float]] {
            Self.weightGradients(g) + [g.headBias] + g.layers.flatMap { [$0.forward.bias, $0.backward.bias] }
        }
        let pool = FloatBufferPool()
        let first = try #require(net.lossAndGradients(batch: items, pool: pool))
        _ = net.lossAndGradients(batch: [items[1], items[3]], pool: pool)
        let again = try #require(net.lossAndGradients(batch: items, pool: pool))
        #expect(all(first.gradients) == all(batch) && all(again.gradients) == all(batch))
        #expect(first.losses == losses && again.losses == losses)
    }

    @Test("the float network read from en-US's 8-bit weights gives the engine's log-probabilities (int8 activations aside)")
    func matchesEngine() throws {
        let dir = Fixtures.modelsDirectory.appendingPathComponent("en-US")
        let model = try LoadedModel(directory: dir)
        let net = try _FloatLSTMNetwork(configuration: model.configuration.network, file: SafeTensorsFile(contentsOf: model.weightsURL))
        let ink = try sample("argument.json").ink
        var origins: [FeatureExtractor.FrameOrigin]? = nil
        let features = try model.features.features(for: ink, writingArea: nil, origins: &origins)
        let engine = model.network.logProbabilities(features)
        let trace = net.forward(features.values, frames: features.rows)
        #expect(trace.outputFrames == engine.rows)
        var agree = 0, worst: Float = 0
        for t in 0..<engine.rows {
            var row = Array(trace.logits[t * net.classes..<(t + 1) * net.classes])
            row.withUnsafeMutableBufferPointer { _logSoftmax($0.baseAddress!, count: net.classes) }
            let a = row.indices.max { row[$0] < row[$1] }!
            let b = (0..<engine.columns).max { engine[t, $0] < engine[t, $1] }!
            agree += a == b ? 1 : 0
            worst = max(worst, abs(row[a] - engine[t, a]))
        }
        #expect(Double(agree) >= 0.9 * Double(engine.rows), "argmax agrees on \(agree) of \(engine.rows) frames")
        #expect(worst < 0.5, "largest difference of a best class's log-probability \(worst)")
    }

    @Test("the whole-network adapter: its objective's gradient (A, B and d) agrees with finite differences (2%)")
    func adapterFiniteDifferences() throws {
        let base = Self.randomNetwork(seed: 11)
        var g = SplitMix(seed: 12)
        let examples = [(9, [1, 2]), (12, [3, 3, 4])].map { (T, labels) in
            LSTMAdapterTraining.Example(features: FeatureMatrix(rows: T, columns: 3, values: (0..<T * 3).map { _ in Float.random(in: -1...1, using: &g) }),
                                        labels: labels)
        }
        var adapter = LSTMAdapter(network: base, rank: 2, seed: 3)
        for k in adapter.pairs.indices { adapter.pairs[k].b = adapter.pairs[k].b.map { _ in Float.random(in: -0.3...0.3, using: &g) } }
        adapter.headBias = adapter.headBias.map { _ in Float.random(in: -0.2...0.2, using: &g) }
        let training = LSTMAdapterTraining(penalty: 0.1)
        let grad = training.objective(adapter, base: base, examples).gradient
        let eps: Float = 5e-3
        var compared = 0
        // A and B of the first layer's recurrent weight (backward direction), of the last layer's input weight, of the head; d.
        for k in [3, 4, adapter.pairs.count - 1] {
            for (isA, i) in [(true, 1), (false, 2)] {
                var up = adapter, down = adapter
                if isA { up.pairs[k].a[i] += eps; down.pairs[k].a[i] -= eps } else { up.pairs[k].b[i] += eps; down.pairs[k].b[i] -= eps }
                let numeric = (training.objective(up, base: base, examples).value - training.objective(down, base: base, examples).value) / Double(2 * eps)
                let analytic = Double(isA ? grad.pairs[k].a[i] : grad.pairs[k].b[i])
                #expect(abs(numeric - analytic) <= 0.02 * max(0.02, abs(analytic)), "pair \(k) \(isA ? "A" : "B")[\(i)]: \(numeric) vs \(analytic)")
                compared += 1
            }
        }
        var up = adapter, down = adapter
        up.headBias[1] += eps; down.headBias[1] -= eps
        let numeric = (training.objective(up, base: base, examples).value - training.objective(down, base: base, examples).value) / Double(2 * eps)
        #expect(abs(numeric - Double(grad.headBias[1])) <= 0.02 * max(0.02, abs(Double(grad.headBias[1]))), "d[1]: \(numeric) vs \(grad.headBias[1])")
        #expect(compared == 6)
        // Arrays reused from one pool (learning's steps and its check's runs share one; some are left unzeroed because
        // they are written in full) give the same objective, bit for bit, after other examples and another change.
        let pool = FloatBufferPool()
        _ = training.objective(up, base: base, [examples[1]], pool: pool)
        _ = training.objective(LSTMAdapter(network: base, rank: 2, seed: 5), base: base, examples.reversed(), pool: pool)
        let reused = training.objective(adapter, base: base, examples, pool: pool)
        #expect(reused.gradient == grad && reused.value == training.objective(adapter, base: base, examples).value)
    }

    @Test("a fresh adapter leaves the network as it is; Adam steps lower the objective on the examples they learn from")
    func adapterLearns() throws {
        let base = Self.randomNetwork(seed: 21)
        let fresh = LSTMAdapter(network: base, rank: 2, seed: 5)
        let same = fresh.applied(to: base)
        #expect(same.layers[1].forward.inputWeights == base.layers[1].forward.inputWeights && same.headBias == base.headBias)
        var g = SplitMix(seed: 22)
        let examples = [(10, [1, 2, 3]), (8, [4, 4]), (12, [5, 1, 5])].map { (T, labels) in
            LSTMAdapterTraining.Example(features: FeatureMatrix(rows: T, columns: 3, values: (0..<T * 3).map { _ in Float.random(in: -1...1, using: &g) }),
                                        labels: labels)
        }
        // (A small penalty: this random network needs large changes, which the shipped penalty 0.1 holds back.)
        let training = LSTMAdapterTraining(steps: 30, learningRate: 0.05, penalty: 0.01)
        let before = training.objective(fresh, base: base, examples).value
        let learned = training.fit(fresh, base: base, to: examples)
        let after = training.objective(learned, base: base, examples).value
        #expect(after < 0.75 * before, "objective \(before) -> \(after)")
        #expect(learned.count == fresh.count && learned != fresh)
        #expect(training.fit(fresh, base: base, to: examples) == learned)  // deterministic
        // A larger penalty keeps the change smaller.
        let held = LSTMAdapterTraining(steps: 30, learningRate: 0.05, penalty: 1).fit(fresh, base: base, to: examples)
        func size(_ a: LSTMAdapter) -> Float { a.pairs.reduce(0) { $0 + $1.product.reduce(0) { $0 + $1 * $1 } } }
        #expect(size(held) < size(learned))
        // Steps of two examples each (what a profile does with ten): still lower, the same for the same seed.
        var sliced = training
        sliced.minibatch = 2
        let byTwo = sliced.fit(fresh, base: base, to: examples)
        #expect(training.objective(byTwo, base: base, examples).value < 0.9 * before)
        #expect(sliced.fit(fresh, base: base, to: examples) == byTwo && byTwo != learned)
        sliced.seed = 7
        #expect(sliced.fit(fresh, base: base, to: examples) != byTwo)
    }

    @Test("folded back into the engine (8 bits, as the exporter quantizes), an unchanged network reads as the shipped one; a change reaches the engine")
    func engineNetwork() throws {
        let dir = Fixtures.modelsDirectory.appendingPathComponent("en-US")
        let model = try LoadedModel(directory: dir)
        let c = model.configuration.network
        let net = try _FloatLSTMNetwork(configuration: c, file: SafeTensorsFile(contentsOf: model.weightsURL))
        let engine = try net.engineNetwork(configuration: c)
        let ink = try sample("argument.json").ink
        var origins: [FeatureExtractor.FrameOrigin]? = nil
        let features = try model.features.features(for: ink, writingArea: nil, origins: &origins)
        let shipped = model.network.logProbabilities(features), again = engine.logProbabilities(features)
        #expect(maxAbsDifference(shipped, again) < 1e-3, "\(maxAbsDifference(shipped, again))")
        // The 8-bit rows are the exporter's: requantizing the dequantized rows gives the same integers.
        let file = try SafeTensorsFile(contentsOf: model.weightsURL)
        let q = try file.int8s("lstms.1.weight_hh_l0", shape: [4 * c.hidden, c.hidden])
        let (again8, _) = _FloatLSTMNetwork.quantizedRows(net.layers[1].forward.recurrentWeights, rows: 4 * c.hidden)
        #expect(again8 == q)
        // A change to one recurrent weight changes what the engine computes.
        #expect(LSTMAdapter(network: net, rank: 8).count == 54_637)  // the size Docs/personalization.md gives
        var adapter = LSTMAdapter(network: net, rank: 2, seed: 1)
        adapter.pairs[5].b = adapter.pairs[5].b.map { _ in 2 }
        let changed = try adapter.applied(to: net).engineNetwork(configuration: c).logProbabilities(features)
        #expect(maxAbsDifference(shipped, changed) > 0.01)
    }
}

extension LSTMAdapter.Pair {
    /// B A (rows × columns), for the tests' measure of a change's size (learning never forms it: it adds B A to a
    /// copy of W in one product, ``LSTMAdapter/applied(to:pool:)``).
    var product: [Float] {
        let r = a.count / columns
        var out = [Float](repeating: 0, count: rows * columns)
        b.withUnsafeBufferPointer { bp in
            a.withUnsafeBufferPointer { ap in
                out.withUnsafeMutableBufferPointer { o in
                    _BLAS.gemm(transposeA: false, transposeB: false, m: rows, n: columns, k: r, a: bp.baseAddress!, lda: r,
                               b: ap.baseAddress!, ldb: columns, beta: 0, c: o.baseAddress!, ldc: columns)
                }
            }
        }
        return out
    }
}
