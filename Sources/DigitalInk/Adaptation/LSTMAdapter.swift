import Foundation

/// A writer's change to the whole network (issue 41): a rank-r change B·A beside every LSTM weight (input and
/// recurrent, both directions, every layer) and beside the head's weight, and a change d to the head's bias. The
/// PyTorch prototype (`families/latin/adaptation_prototype.py`, method `loraall`) found it worth twice the last
/// layer alone on the tuning writers. Internal; what a new ``WriterProfile`` learns where it fits in the profile.
///
///     W' = W + B A      (W: out × in;  A: r × in;  B: out × r)
///     b_head' = b_head + d
///     penalty = λ (Σ ‖B A‖² + ‖d‖²)
///     ∂/∂A = Bᵀ (∂L/∂W' + 2λ B A),   ∂/∂B = (∂L/∂W' + 2λ B A) Aᵀ,   ∂/∂d = ∂L/∂b_head' + 2λ d
///
/// Learning never forms ∂L/∂W' (out × in): ``_FloatLSTMNetwork/gradients(_:logitsGradient:adapter:pool:)`` gives
/// Bᵀ ∂L/∂W' and ∂L/∂W' Aᵀ from its factors, and the penalty's part goes through the r × r matrices BᵀB and A Aᵀ
/// (‖B A‖² = Σ BᵀB ⊙ A Aᵀ). The chain rule above is what `Fixtures/lstm-gradient.json` checks against PyTorch's
/// autograd (`loraGradients`), both ways.
struct LSTMAdapter: Sendable, Equatable {
    /// One weight's change: `a` r × columns, `b` rows × r, row-major.
    struct Pair: Sendable, Equatable {
        let rows: Int
        let columns: Int
        var a: [Float]
        var b: [Float]
    }

    let rank: Int
    /// Per layer: input and recurrent weight of the forward direction, then of the backward one; the head's last.
    var pairs: [Pair]
    var headBias: [Float]

    /// No change yet: every B and d zero, every A normal with standard deviation 0.01 drawn from `seed` (so that
    /// B's gradient is not zero), as the prototype starts.
    init(network n: _FloatLSTMNetwork, rank: Int, seed: UInt64 = 41) {
        self.init(shapes: Self.shapes(of: n), classes: n.classes, rank: rank, seed: seed)
    }

    /// No change yet to weights of `shapes` (in the order of ``pairs``) and a head of `classes`.
    init(shapes: [(rows: Int, columns: Int)], classes: Int, rank: Int, seed: UInt64 = 41) {
        var g = SplitMix64(seed: seed)
        pairs = shapes.map { rows, columns in
            Pair(rows: rows, columns: columns, a: (0..<rank * columns).map { _ in Float(0.01 * g.nextNormal()) },
                 b: [Float](repeating: 0, count: rows * rank))
        }
        self.rank = rank
        self.headBias = [Float](repeating: 0, count: classes)
    }

    init(rank: Int, pairs: [Pair], headBias: [Float]) {
        self.rank = rank
        self.pairs = pairs
        self.headBias = headBias
    }

    /// The (rows, columns) of each weight a change sits beside, in the order of ``pairs``.
    static func shapes(of n: _FloatLSTMNetwork) -> [(rows: Int, columns: Int)] {
        let G = 4 * n.hidden
        var out: [(rows: Int, columns: Int)] = []
        for layer in n.layers {
            for _ in 0..<2 { out.append((G, layer.inputSize)); out.append((G, n.hidden)) }
        }
        out.append((n.classes, n.headInputs))
        return out
    }

    /// The same shapes from a network's configuration alone (without reading its weights): layer 0 reads the
    /// input features, each later layer 2H columns, or 4H after the time reduction; the head reads the last.
    static func shapes(of c: NetworkConfiguration) -> [(rows: Int, columns: Int)] {
        let H = c.hidden, G = 4 * H
        var out: [(rows: Int, columns: Int)] = []
        var inputs = c.inputDim
        for l in 0..<c.layers {
            for _ in 0..<2 { out.append((G, inputs)); out.append((G, H)) }
            inputs = 2 * H * (c.reduceAfter == l + 1 ? 2 : 1)
        }
        out.append((c.numClasses, inputs))
        return out
    }

    /// Whether every pair has the shape of `network`'s weight it changes, and d of its classes.
    func fits(_ network: _FloatLSTMNetwork) -> Bool {
        let shapes = Self.shapes(of: network)
        return shapes.count == pairs.count && headBias.count == network.classes
            && zip(shapes, pairs).allSatisfy { s, p in
                s.rows == p.rows && s.columns == p.columns && p.a.count == rank * p.columns && p.b.count == p.rows * rank
            }
    }

    /// How many numbers the change holds.
    var count: Int { pairs.reduce(headBias.count) { $0 + $1.a.count + $1.b.count } }

    /// `base` with the change: W + B A for every weight, the head's bias + d. Its weights are in arrays from `pool`
    /// (a step of learning gives them back to it).
    func applied(to base: _FloatLSTMNetwork, pool: FloatBufferPool = FloatBufferPool()) -> _FloatLSTMNetwork {
        var n = base
        // W + B A as one product added to a copy of W (β = 1): each number W + (B A) rounded once, as W + a formed B A.
        func add(_ w: inout [Float], _ p: Pair) {
            var out = pool.copy(w)
            let r = p.a.count / p.columns
            p.b.withUnsafeBufferPointer { bp in
                p.a.withUnsafeBufferPointer { ap in
                    out.withUnsafeMutableBufferPointer { o in
                        _BLAS.gemm(transposeA: false, transposeB: false, m: p.rows, n: p.columns, k: r, a: bp.baseAddress!, lda: r,
                                   b: ap.baseAddress!, ldb: p.columns, beta: 1, c: o.baseAddress!, ldc: p.columns)
                    }
                }
            }
            w = out
        }
        var k = 0
        for l in n.layers.indices {
            add(&n.layers[l].forward.inputWeights, pairs[k]); add(&n.layers[l].forward.recurrentWeights, pairs[k + 1])
            add(&n.layers[l].backward.inputWeights, pairs[k + 2]); add(&n.layers[l].backward.recurrentWeights, pairs[k + 3])
            k += 4
        }
        add(&n.headWeight, pairs[k])
        for i in n.headBias.indices { n.headBias[i] += headBias[i] }
        return n
    }
}

/// Adam on the mean CTC loss of the examples (each divided by its text's length, as PyTorch's `CTCLoss(reduction:
/// "mean")`; a lone letter's is the loss of either case, ``HeadExample/otherCase(of:model:)``) plus the adapter's
/// penalty: the prototype's `learn`. With ``minibatch`` > 0 each step reads that many examples, consecutive slices of
/// one shuffled order drawn from ``seed`` (reshuffled when it runs out), as the prototype's `--minibatch`.
/// Deterministic. Internal.
struct LSTMAdapterTraining: Sendable {
    var steps = NetworkLearningSettings.steps
    var learningRate: Float = 0.01
    var penalty: Float = 0.1
    /// Examples per step; 0 for all of them.
    var minibatch = 0
    var seed: UInt64 = 41

    struct Example: Sendable {
        var features: FeatureMatrix
        var labels: [Int]
        /// A lone letter's other case (``HeadExample/otherCase(of:model:)``): the example then learns either case.
        var otherCase: [Int]? = nil
        /// The pair itself, for the check's readings (``HeldOutCheck``); nil where only features are known.
        var ink: Ink? = nil
        var text: String? = nil
    }

    /// The objective at `adapter` and its gradient, shaped as the adapter (`a`, `b` of each pair, then d).
    func objective(_ adapter: LSTMAdapter, base: _FloatLSTMNetwork, _ examples: [Example],
                   pool: FloatBufferPool = FloatBufferPool()) -> (value: Double, gradient: LSTMAdapter) {
        var net = adapter.applied(to: base, pool: pool)
        defer { pool.recycle(&net) }
        // One forward and one backward pass of the whole batch, each example's loss weighted by 1 / its text's length.
        let usable = examples.filter { !$0.labels.isEmpty }
        let batch = net.lossAndGradients(batch: usable.map {
            .init(features: $0.features.values, frames: $0.features.rows, labelings: [$0.labels] + ($0.otherCase.map { [$0] } ?? []),
                  weight: 1 / Float($0.labels.count))
        }, adapter: adapter, pool: pool)
        var loss = 0.0, n = 0
        for (l, e) in zip(batch?.losses ?? [], usable) {
            guard let l else { continue }
            loss += l / Double(e.labels.count)
            n += 1
        }
        let biasSum = batch?.gradients.headBias ?? [Float](repeating: 0, count: adapter.headBias.count)
        let scale: Float = n > 0 ? 1 / Float(n) : 0
        var grad = adapter
        var value = n > 0 ? loss / Double(n) : 0
        let r = adapter.rank
        for (k, p) in adapter.pairs.enumerated() {
            // The loss's part (no example aligned: none): Bᵀ δW and δW Aᵀ from the backward pass, times 1 / n.
            var da = batch.map { $0.gradients.adapter[k].a } ?? [Float](repeating: 0, count: r * p.columns)
            var db = batch.map { $0.gradients.adapter[k].b } ?? [Float](repeating: 0, count: p.rows * r)
            for i in da.indices { da[i] *= scale }
            for i in db.indices { db[i] *= scale }
            // The penalty's, through the r × r Gram matrices: ‖B A‖² = Σ (BᵀB) ⊙ (A Aᵀ), ∂A = 2λ (BᵀB) A, ∂B = 2λ B (A Aᵀ).
            var btb = [Float](repeating: 0, count: r * r), aat = btb
            p.b.withUnsafeBufferPointer { b in
                p.a.withUnsafeBufferPointer { a in
                    btb.withUnsafeMutableBufferPointer { o in
                        _BLAS.gemm(transposeA: true, transposeB: false, m: r, n: r, k: p.rows, a: b.baseAddress!, lda: r,
                                   b: b.baseAddress!, ldb: r, beta: 0, c: o.baseAddress!, ldc: r)
                    }
                    aat.withUnsafeMutableBufferPointer { o in
                        _BLAS.gemm(transposeA: false, transposeB: true, m: r, n: r, k: p.columns, a: a.baseAddress!, lda: p.columns,
                                   b: a.baseAddress!, ldb: p.columns, beta: 0, c: o.baseAddress!, ldc: r)
                    }
                }
            }
            value += Double(penalty) * zip(btb, aat).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
            let twice = 2 * penalty
            for i in btb.indices { btb[i] *= twice; aat[i] *= twice }
            btb.withUnsafeBufferPointer { g in
                p.a.withUnsafeBufferPointer { a in
                    da.withUnsafeMutableBufferPointer { o in
                        _BLAS.gemm(transposeA: false, transposeB: false, m: r, n: p.columns, k: r, a: g.baseAddress!, lda: r,
                                   b: a.baseAddress!, ldb: p.columns, beta: 1, c: o.baseAddress!, ldc: p.columns)
                    }
                }
            }
            aat.withUnsafeBufferPointer { g in
                p.b.withUnsafeBufferPointer { b in
                    db.withUnsafeMutableBufferPointer { o in
                        _BLAS.gemm(transposeA: false, transposeB: false, m: p.rows, n: r, k: r, a: b.baseAddress!, lda: r,
                                   b: g.baseAddress!, ldb: r, beta: 1, c: o.baseAddress!, ldc: r)
                    }
                }
            }
            grad.pairs[k].a = da
            grad.pairs[k].b = db
        }
        for i in grad.headBias.indices {
            grad.headBias[i] = biasSum[i] * scale + 2 * penalty * adapter.headBias[i]
            value += Double(penalty * adapter.headBias[i] * adapter.headBias[i])
        }
        return (value, grad)
    }

    /// `start` after `steps` Adam steps (β 0.9, 0.999; ε 1e-8; fresh moments) on ``objective(_:base:_:)``. `pool`
    /// keeps the batches' arrays from step to step; a caller that fits several times (the profile and its check's
    /// runs) passes one pool to all of them, so that each fit's first step reuses memory too.
    func fit(_ start: LSTMAdapter, base: _FloatLSTMNetwork, to examples: [Example],
             pool: FloatBufferPool = FloatBufferPool()) -> LSTMAdapter {
        guard !examples.isEmpty, steps > 0 else { return start }
        var params = Self.flatten(start)
        var m = [Float](repeating: 0, count: params.count), v = m
        var current = start
        var rng = SplitMix64(seed: seed)
        var order: [Int] = []
        for step in 1...steps {
            var batch = examples
            if minibatch > 0, minibatch < examples.count {
                if order.count < minibatch {
                    order = Array(examples.indices)
                    for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
                }
                batch = order.prefix(minibatch).sorted().map { examples[$0] }
                order.removeFirst(minibatch)
            }
            let g = Self.flatten(objective(current, base: base, batch, pool: pool).gradient)
            let c1 = 1 - powf(0.9, Float(step)), c2 = 1 - powf(0.999, Float(step))
            let lr = learningRate
            params.withUnsafeMutableBufferPointer { p in
                m.withUnsafeMutableBufferPointer { m in
                    v.withUnsafeMutableBufferPointer { v in
                        g.withUnsafeBufferPointer { g in
                            for i in 0..<p.count {
                                m[i] = 0.9 * m[i] + 0.1 * g[i]
                                v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i]
                                p[i] -= lr * (m[i] / c1) / ((v[i] / c2).squareRoot() + 1e-8)
                            }
                        }
                    }
                }
            }
            current = Self.unflatten(params, like: current)
        }
        return current
    }

    static func flatten(_ a: LSTMAdapter) -> [Float] { a.pairs.flatMap { $0.a + $0.b } + a.headBias }

    static func unflatten(_ values: [Float], like a: LSTMAdapter) -> LSTMAdapter {
        var out = a, i = 0
        for k in out.pairs.indices {
            let na = out.pairs[k].a.count, nb = out.pairs[k].b.count
            out.pairs[k].a = Array(values[i..<i + na]); i += na
            out.pairs[k].b = Array(values[i..<i + nb]); i += nb
        }
        out.headBias = Array(values[i..<i + out.headBias.count])
        return out
    }
}
