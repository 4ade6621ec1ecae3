import Foundation
import _InkKernels

/// The recognition network as float matrices in PyTorch's layout, with a forward pass that keeps what
/// backpropagation through time needs and the gradient of a loss with respect to every weight: the reference
/// for adapting a writer below the head (issue 41). Recognition itself runs in ``RecognitionNetwork``'s kernels;
/// this type is never on that path. 8-bit tensors are dequantized as q · scale per row (as
/// `Training/inkrec_training/quantize.py`, `dequantize_state`), and the activations stay float. Internal.
///
/// Shapes (H hidden units; `in` a layer's inputs; T frames; C classes; F the head's inputs):
///
///     layer l, direction d:   W_ih 4H × in,  W_hh 4H × H,  b 4H (b_ih + b_hh), gates in the order i, f, g, o
///     forward direction:      z_t = W_ih x_t + W_hh h_{t−1} + b    (t = 0 … T−1; h and c start at 0)
///     backward direction:     the same with h_{t+1}, from t = T−1 down to 0
///     i, f, o = σ(z_i, z_f, z_o);  g = tanh(z_g);  c_t = f ⊙ c_prev + i ⊙ g;  h_t = o ⊙ tanh(c_t)
///     layer output, row t:    [h_fwd(t), h_bwd(t)]                 (T × 2H)
///     after layer `reduceAfter`: rows 2t and 2t + 1 side by side   (⌈T/2⌉ × 4H; a zero row pads an odd T)
///     logits = X W_headᵀ + b_head                                  (T' × C)
///
/// Backward, one direction, its steps in reverse order (δ: the gradient of the loss; "next" the step after t in
/// the direction's own order, which the loop visits first):
///
///     δh_t = δout_t + W_hhᵀ δz_next
///     δc_t = δc_next ⊙ f_next + δh_t ⊙ o_t ⊙ (1 − tanh² c_t)
///     δz_i = δc_t ⊙ g ⊙ i(1 − i),  δz_f = δc_t ⊙ c_prev ⊙ f(1 − f),  δz_g = δc_t ⊙ i ⊙ (1 − g²),
///     δz_o = δh_t ⊙ tanh c_t ⊙ o(1 − o)
///     δW_ih = Σ_t δz_t x_tᵀ,  δW_hh = Σ_t δz_t h_prevᵀ,  δb = Σ_t δz_t,  δx_t += W_ihᵀ δz_t
///
/// A batch of sequences (``lossAndGradients(batch:blank:pool:)``: a training step's examples) runs as one: their rows
/// one sequence after another, the recurrent product of one step of every sequence still running one matrix product
/// (longest first, so that those running are a prefix; ``_SmallProduct``: an AVX-512 or AVX2 kernel where there is one), each
/// weight's gradient one product over all rows. Each sequence reads as it would alone; the batch's gradient is the
/// weighted sum of theirs (`LSTMGradientTests`). Learning a writer's change B A beside each weight
/// (``LSTMAdapter``) takes the gradient of A and B instead, from δW's factors without forming δW
/// (``projected(_:_:rows:count:pair:pool:)``).
///
/// `Tests/DigitalInkTests/Fixtures/lstm-gradient.json` (PyTorch autograd, `Training/inkrec_training/lstm_gradient_golden.py`)
/// pins the loss and every gradient.
@_spi(Engine) public struct _FloatLSTMNetwork: Sendable {
    public struct Direction: Sendable {
        var inputWeights: [Float]      // 4H × in
        var recurrentWeights: [Float]  // 4H × H
        var bias: [Float]              // 4H: b_ih + b_hh
    }

    public struct Layer: Sendable {
        var inputSize: Int
        var forward: Direction
        var backward: Direction
    }

    let hidden: Int
    let reduceAfter: Int
    let classes: Int
    var layers: [Layer]
    var headWeight: [Float]  // C × F
    var headBias: [Float]    // C

    var headInputs: Int { headWeight.count / classes }

    /// The network of `configuration` from its weights file (float or 8-bit; every tensor checked by name and
    /// shape, as ``RecognitionNetwork`` checks them).
    public init(configuration: NetworkConfiguration, weightsURL: URL) throws(DigitalInkError) {
        try self.init(configuration: configuration, file: try SafeTensorsFile(contentsOf: weightsURL))
    }

    init(configuration c: NetworkConfiguration, file: SafeTensorsFile) throws(DigitalInkError) {
        guard (c.head ?? .ctc) == .ctc, c.inputDim > 0, c.hidden > 0, c.layers > 0, c.numClasses > 1, (0...c.layers).contains(c.reduceAfter) else {
            throw .invalidOption(name: "writerProfile", reason: "only CTC networks can adapt below the head")
        }
        let H = c.hidden
        func take(_ name: String, _ shape: [Int]) throws(DigitalInkError) -> [Float] {
            if file.tensors[name + ".scale"] != nil {
                let q = try file.int8s(name, shape: shape)
                let scale = try file.floats(name + ".scale", shape: [shape[0]])
                let columns = shape[1]
                return q.indices.map { Float(q[$0]) * scale[$0 / columns] }
            }
            return try file.floats(name, shape: shape)
        }
        var layers: [Layer] = []
        var inSize = c.inputDim
        for l in 0..<c.layers {
            func direction(_ suffix: String) throws(DigitalInkError) -> Direction {
                let p = "lstms.\(l)."
                let bih = try take(p + "bias_ih_l0" + suffix, [4 * H])
                let bhh = try take(p + "bias_hh_l0" + suffix, [4 * H])
                return Direction(inputWeights: try take(p + "weight_ih_l0" + suffix, [4 * H, inSize]),
                                 recurrentWeights: try take(p + "weight_hh_l0" + suffix, [4 * H, H]),
                                 bias: zip(bih, bhh).map { $0 + $1 })
            }
            layers.append(Layer(inputSize: inSize, forward: try direction(""), backward: try direction("_reverse")))
            inSize = 2 * H * (c.reduceAfter == l + 1 ? 2 : 1)
        }
        self.init(hidden: H, reduceAfter: c.reduceAfter, classes: c.numClasses, layers: layers,
                  headWeight: try take("head.weight", [c.numClasses, inSize]), headBias: try take("head.bias", [c.numClasses]))
    }

    init(hidden: Int, reduceAfter: Int, classes: Int, layers: [Layer], headWeight: [Float], headBias: [Float]) {
        self.hidden = hidden
        self.reduceAfter = reduceAfter
        self.classes = classes
        self.layers = layers
        self.headWeight = headWeight
        self.headBias = headBias
    }

    /// What one direction of one layer computed: the activated gates (T × 4H: i, f, g, o), the cells, their tanh
    /// and the outputs (T × H each).
    struct DirectionTrace: Sendable {
        var gates: [Float]
        var cells: [Float]
        var cellTanh: [Float]
        var outputs: [Float]
    }

    /// What the forward pass keeps, for a batch of sequences whose rows lie one sequence after another: each layer's
    /// input (N_l × in_l, N_l the sum of the sequences' frames there) and their frames, both directions' traces, the
    /// head's input and the logits (N' × C), and each sequence's rows of logits.
    struct Trace: Sendable {
        var inputs: [[Float]] = []
        var frames: [[Int]] = []
        var forward: [DirectionTrace] = []
        var backward: [DirectionTrace] = []
        var headInput: [Float] = []
        var logits: [Float] = []
        var sequenceFrames: [Int] = []
        var outputFrames: Int { logits.count / max(1, classes) }
        var classes = 0
    }

    /// The gradient with respect to every weight, shaped as the weights; or, taken for an adapter
    /// (``gradients(_:logitsGradient:adapter:pool:)``), with respect to its pairs instead of the weights.
    public struct Gradients: Sendable {
        var layers: [Layer]
        var headWeight: [Float]
        var headBias: [Float]
        /// For an adapter: per pair (in ``LSTMAdapter/pairs``' order), ∂L/∂A = Bᵀ δW in `a` and ∂L/∂B = δW Aᵀ in `b`;
        /// the weights' own gradients (every `inputWeights`, `recurrentWeights` and `headWeight`) are then empty.
        var adapter: [LSTMAdapter.Pair] = []
    }

    /// Runs `features` (T × inputDim, row after row) through the network, keeping the trace.
    func forward(_ features: [Float], frames T0: Int) -> Trace { forward(features, sequences: [T0], pool: FloatBufferPool()) }

    /// Runs a batch of sequences through the network at once, keeping the trace: `features` holds every sequence's
    /// rows (inputDim each), one sequence after another, `sequences` their frames. Each sequence reads as it would
    /// alone (its own start and end in both directions, its own pad row at the time reduction); the batch only lets a
    /// recurrent step of every sequence be one matrix product. Its arrays come from `pool`.
    func forward(_ features: [Float], sequences: [Int], pool: FloatBufferPool) -> Trace {
        var trace = Trace()
        trace.classes = classes
        let H = hidden
        var x = features, T = sequences
        for (l, layer) in layers.enumerated() {
            trace.inputs.append(x)
            trace.frames.append(T)
            let f = Self.run(layer.forward, input: x, frames: T, inputSize: layer.inputSize, hidden: H, reverse: false, pool: pool)
            let b = Self.run(layer.backward, input: x, frames: T, inputSize: layer.inputSize, hidden: H, reverse: true, pool: pool)
            trace.forward.append(f)
            trace.backward.append(b)
            let reduce = reduceAfter == l + 1  // rows 2t, 2t + 1 side by side; a zero row pads an odd T
            var out = pool.empty(reserving: (T.reduce(0, +) + T.count) * 2 * H)
            var row = 0
            for n in T {
                for t in row..<row + n {
                    out.append(contentsOf: f.outputs[t * H..<(t + 1) * H])
                    out.append(contentsOf: b.outputs[t * H..<(t + 1) * H])
                }
                if reduce, n % 2 == 1 { out.append(contentsOf: repeatElement(0, count: 2 * H)) }
                row += n
            }
            if reduce { T = T.map { ($0 + 1) / 2 } }
            x = out
        }
        trace.headInput = x
        trace.sequenceFrames = T
        let F = headInputs, C = classes, rows = T.reduce(0, +)
        var logits = pool.unset(rows * C)  // every number written: the bias, then the product added
        for t in 0..<rows { for k in 0..<C { logits[t * C + k] = headBias[k] } }
        x.withUnsafeBufferPointer { xp in
            headWeight.withUnsafeBufferPointer { w in
                logits.withUnsafeMutableBufferPointer { o in
                    _BLAS.gemm(transposeA: false, transposeB: true, m: rows, n: C, k: F, a: xp.baseAddress!, lda: F,
                               b: w.baseAddress!, ldb: F, beta: 1, c: o.baseAddress!, ldc: C)
                }
            }
        }
        trace.logits = logits
        return trace
    }

    /// Where a batch's sequences lie and in which order its recurrent steps visit them: `start` each sequence's first
    /// row, `order` the sequences longest first (ties by index), so that those still running at step s are the first
    /// ones of `order`.
    struct Schedule {
        let frames: [Int]
        let start: [Int]
        let order: [Int]
        let longest: Int

        init(_ frames: [Int]) {
            self.frames = frames
            var s: [Int] = [], row = 0
            for n in frames { s.append(row); row += n }
            start = s
            order = frames.indices.sorted { frames[$0] != frames[$1] ? frames[$0] > frames[$1] : $0 < $1 }
            longest = frames.max() ?? 0
        }

        /// How many sequences step s reaches (a prefix of `order`).
        func running(at s: Int) -> Int {
            var k = 0
            while k < order.count, frames[order[k]] > s { k += 1 }
            return k
        }

        /// The row of step s of sequence b and of the step before it in the direction's order.
        func rows(_ b: Int, step s: Int, reverse: Bool) -> (row: Int, previous: Int) {
            let t = reverse ? frames[b] - 1 - s : s
            return (start[b] + t, start[b] + (reverse ? t + 1 : t - 1))
        }
    }

    /// One direction over each sequence of a batch (`reverse`: from its last frame down to its first), the recurrent
    /// products of one step of every sequence as one matrix product. σ and tanh as the engine computes them
    /// (`_sigmoid8`, `_tanh8`: |error| < 1e-6), 8 units at a time.
    static func run(_ d: Direction, input: [Float], frames: [Int], inputSize: Int, hidden H: Int, reverse: Bool, pool: FloatBufferPool) -> DirectionTrace {
        let G = 4 * H, N = frames.reduce(0, +), plan = Schedule(frames), B = frames.count
        var z = pool.unset(N * G)  // X W_ihᵀ + b, then the activated gates (every row written: the bias first)
        for t in 0..<N { for k in 0..<G { z[t * G + k] = d.bias[k] } }
        input.withUnsafeBufferPointer { x in
            d.inputWeights.withUnsafeBufferPointer { w in
                z.withUnsafeMutableBufferPointer { o in
                    _BLAS.gemm(transposeA: false, transposeB: true, m: N, n: G, k: inputSize, a: x.baseAddress!, lda: inputSize,
                               b: w.baseAddress!, ldb: inputSize, beta: 1, c: o.baseAddress!, ldc: G)
                }
            }
        }
        // Every row is written: each step writes each running sequence's row of its frame, and every frame is a step.
        var cells = pool.unset(N * H)
        var cellTanh = pool.unset(N * H)
        var outputs = pool.unset(N * H)
        var zeros = [Float](repeating: 0, count: H)
        var previous = [Float](repeating: 0, count: B * H)  // the running sequences' h of the step before
        var product = [Float](repeating: 0, count: B * G)   // those times W_hhᵀ
        let recurrentTransposed = _SmallProduct.transposed(d.recurrentWeights, rows: G, columns: H)
        z.withUnsafeMutableBufferPointer { zp in
            cells.withUnsafeMutableBufferPointer { cp in
                cellTanh.withUnsafeMutableBufferPointer { tp in
                    outputs.withUnsafeMutableBufferPointer { hp in
                        zeros.withUnsafeMutableBufferPointer { zero in
                            previous.withUnsafeMutableBufferPointer { prevs in
                                product.withUnsafeMutableBufferPointer { prod in
                                    recurrentTransposed.withUnsafeBufferPointer { whhT in  // H × G
                                        for s in 0..<plan.longest {
                                            let running = plan.running(at: s)
                                            if s > 0 {
                                                for k in 0..<running {
                                                    let prev = plan.rows(plan.order[k], step: s, reverse: reverse).previous
                                                    (prevs.baseAddress! + k * H).update(from: hp.baseAddress! + prev * H, count: H)
                                                }
                                                _SmallProduct.gemm(m: running, n: G, k: H, a: prevs.baseAddress!, lda: H,
                                                                   b: whhT.baseAddress!, ldb: G, c: prod.baseAddress!, ldc: G)
                                            }
                                            for k in 0..<running {
                                                let (t, prev) = plan.rows(plan.order[k], step: s, reverse: reverse)
                                                let g = zp.baseAddress! + t * G
                                                if s > 0 { let r = prod.baseAddress! + k * G; for i in 0..<G { g[i] += r[i] } }
                                                let cPrev = s > 0 ? cp.baseAddress! + prev * H : zero.baseAddress!
                                                let c = cp.baseAddress! + t * H, tc = tp.baseAddress! + t * H, h = hp.baseAddress! + t * H
                                                var j = 0
                                                while j + 8 <= H {
                                                    let i = _sigmoid8(_load8(g + j)), f = _sigmoid8(_load8(g + H + j))
                                                    let gc = _tanh8(_load8(g + 2 * H + j)), o = _sigmoid8(_load8(g + 3 * H + j))
                                                    let cNew = f * _load8(cPrev + j) + i * gc, tcNew = _tanh8(cNew)
                                                    _store8(cNew, c + j); _store8(tcNew, tc + j); _store8(o * tcNew, h + j)
                                                    _store8(i, g + j); _store8(f, g + H + j); _store8(gc, g + 2 * H + j); _store8(o, g + 3 * H + j)
                                                    j += 8
                                                }
                                                while j < H {
                                                    let i = _sigmoid(g[j]), f = _sigmoid(g[H + j]), gc = _tanh(g[2 * H + j]), o = _sigmoid(g[3 * H + j])
                                                    c[j] = f * cPrev[j] + i * gc
                                                    tc[j] = _tanh(c[j])
                                                    h[j] = o * tc[j]
                                                    g[j] = i; g[H + j] = f; g[2 * H + j] = gc; g[3 * H + j] = o
                                                    j += 1
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return DirectionTrace(gates: z, cells: cells, cellTanh: cellTanh, outputs: outputs)
    }

    /// The gradient of a loss with respect to every weight, from its gradient with respect to the logits
    /// (N' × C, as ``CTCGradient`` gives it, each sequence's rows in turn) and the trace of the forward pass that
    /// made them. For a batch: the sum of each sequence's gradient.
    ///
    /// With an `adapter` (a change B A beside every weight, ``LSTMAdapter``; the network then being the one it
    /// applies to) the weights' gradients are not formed: each pair's ∂L/∂A = Bᵀ δW and ∂L/∂B = δW Aᵀ come from δW's
    /// factors (``Gradients/adapter``, ``projected(_:_:rows:count:pair:pool:)``), at about a tenth of the products.
    func gradients(_ trace: Trace, logitsGradient dY: [Float], adapter: LSTMAdapter? = nil, pool: FloatBufferPool) -> Gradients {
        let H = hidden, C = classes, F = headInputs, T1 = trace.outputFrames
        precondition(dY.count == T1 * C)
        precondition(adapter.map { $0.pairs.count == 4 * layers.count + 1 } ?? true)
        let full = adapter == nil
        var g = Gradients(layers: layers.map { l in
            let zero = Direction(inputWeights: [Float](repeating: 0, count: full ? l.forward.inputWeights.count : 0),
                                 recurrentWeights: [Float](repeating: 0, count: full ? l.forward.recurrentWeights.count : 0),
                                 bias: [Float](repeating: 0, count: 4 * H))
            return Layer(inputSize: l.inputSize, forward: zero, backward: zero)
        }, headWeight: [Float](repeating: 0, count: full ? C * F : 0), headBias: [Float](repeating: 0, count: C),
           adapter: adapter?.pairs ?? [])
        // Head: δW = δYᵀ X, δb = Σ_t δY_t, δX = δY W.
        var dX = pool.unset(T1 * F)  // written by the product below (β = 0)
        dY.withUnsafeBufferPointer { dy in
            trace.headInput.withUnsafeBufferPointer { x in
                if let adapter {
                    g.adapter[4 * layers.count] = Self.projected(dy, x, rows: T1, count: C, pair: adapter.pairs[4 * layers.count], pool: pool)
                } else {
                    g.headWeight.withUnsafeMutableBufferPointer { dw in
                        _BLAS.gemm(transposeA: true, transposeB: false, m: C, n: F, k: T1, a: dy.baseAddress!, lda: C,
                                   b: x.baseAddress!, ldb: F, beta: 0, c: dw.baseAddress!, ldc: F)
                    }
                }
            }
            headWeight.withUnsafeBufferPointer { w in
                dX.withUnsafeMutableBufferPointer { dx in
                    _BLAS.gemm(transposeA: false, transposeB: false, m: T1, n: F, k: C, a: dy.baseAddress!, lda: C,
                               b: w.baseAddress!, ldb: F, beta: 0, c: dx.baseAddress!, ldc: F)
                }
            }
        }
        for t in 0..<T1 { for k in 0..<C { g.headBias[k] += dY[t * C + k] } }
        // Layers, last first. δX of the reduced rows is, unstacked, δ of the layer's outputs (the pad rows dropped).
        for l in stride(from: layers.count - 1, through: 0, by: -1) {
            let T = trace.frames[l], layer = layers[l]
            // dX holds δ of this layer's output: N × 2H, or the reduced Σ⌈T/2⌉ × 4H, whose rows are the same numbers
            // in the same order (row t of the reduced is rows 2t, 2t + 1), each odd sequence's pad row last.
            var dOut: [Float] = []
            if reduceAfter == l + 1 {
                dOut = pool.empty(reserving: T.reduce(0, +) * 2 * H)
                var row = 0
                for n in T {
                    dOut.append(contentsOf: dX[row * 2 * H..<(row + n) * 2 * H])
                    row += n + n % 2
                }
                pool.recycle(&dX)
            } else {
                swap(&dOut, &dX)
            }
            var dIn = pool.zeros(T.reduce(0, +) * layer.inputSize)
            for (reverse, d, tr) in [(false, layer.forward, trace.forward[l]), (true, layer.backward, trace.backward[l])] {
                let k = 4 * l + (reverse ? 2 : 0)  // the adapter's pairs of this direction: input, recurrent
                var pairs = adapter.map { [$0.pairs[k], $0.pairs[k + 1]] }
                let grad = Self.backward(d, trace: tr, input: trace.inputs[l], outputGradient: dOut, column: reverse ? H : 0,
                                         frames: T, inputSize: layer.inputSize, hidden: H, reverse: reverse, inputGradient: &dIn,
                                         adapter: &pairs, pool: pool)
                if reverse { g.layers[l].backward = grad } else { g.layers[l].forward = grad }
                if let pairs { g.adapter[k] = pairs[0]; g.adapter[k + 1] = pairs[1] }
            }
            pool.recycle(&dOut)
            dX = dIn
        }
        pool.recycle(&dX)
        return g
    }

    /// Backpropagation through one direction of a batch: its weights' gradient (the sum over the sequences); adds δx
    /// to `inputGradient` (N × in). `outputGradient` is N × 2H, this direction's columns from `column`. The products
    /// W_hhᵀ δz of one step of every running sequence are one matrix product; the weights' gradients one product each
    /// over all rows. With `adapter` (the pairs beside W_ih and W_hh) the weights' gradients are left empty and each
    /// pair becomes its gradient (``projected(_:_:rows:count:pair:pool:)``).
    static func backward(_ d: Direction, trace: DirectionTrace, input: [Float], outputGradient dOut: [Float], column: Int,
                         frames: [Int], inputSize: Int, hidden H: Int, reverse: Bool, inputGradient: inout [Float],
                         adapter: inout [LSTMAdapter.Pair]?, pool: FloatBufferPool) -> Direction {
        let G = 4 * H, N = frames.reduce(0, +), plan = Schedule(frames), B = frames.count
        var dz = pool.unset(N * G)  // every row written: each step writes its running sequences' rows
        var dhRec = [Float](repeating: 0, count: B * H)  // per running sequence: W_hhᵀ δz of the step visited before
        var dcNext = [Float](repeating: 0, count: B * H)  // δc of that step, times its f
        var gathered = [Float](repeating: 0, count: B * G)  // the running sequences' δz of this step
        let zeros = [Float](repeating: 0, count: H)  // c_prev of a sequence's first step
        dz.withUnsafeMutableBufferPointer { dzp in
            gathered.withUnsafeMutableBufferPointer { gp in
                dhRec.withUnsafeMutableBufferPointer { rec in
                    dcNext.withUnsafeMutableBufferPointer { next in
                        d.recurrentWeights.withUnsafeBufferPointer { whh in
                          trace.gates.withUnsafeBufferPointer { gates in
                            trace.cellTanh.withUnsafeBufferPointer { tanhs in
                              trace.cells.withUnsafeBufferPointer { cells in
                                dOut.withUnsafeBufferPointer { outs in
                                  zeros.withUnsafeBufferPointer { zero in
                            for s in stride(from: plan.longest - 1, through: 0, by: -1) {
                                let running = plan.running(at: s)  // a sequence joins with δh and δc of zero
                                for k in 0..<running {
                                    let (t, prev) = plan.rows(plan.order[k], step: s, reverse: reverse)
                                    let g = gates.baseAddress! + t * G, z = dzp.baseAddress! + t * G
                                    let tcs = tanhs.baseAddress! + t * H, dOuts = outs.baseAddress! + t * 2 * H + column
                                    let recs = rec.baseAddress! + k * H, nexts = next.baseAddress! + k * H
                                    let cPrevs = s > 0 ? cells.baseAddress! + prev * H : zero.baseAddress!
                                    // Each unit's operations in the order of the scalar loop below, 8 units at a time.
                                    var j = 0
                                    while j + 8 <= H {
                                        let i = _load8(g + j), f = _load8(g + H + j), gc = _load8(g + 2 * H + j), o = _load8(g + 3 * H + j)
                                        let tc = _load8(tcs + j)
                                        let dh = _load8(dOuts + j) + _load8(recs + j)
                                        let dc = _load8(nexts + j) + dh * o * (1 - tc * tc)
                                        let cPrev = _load8(cPrevs + j)
                                        _store8(dc * gc * i * (1 - i), z + j)
                                        _store8(dc * cPrev * f * (1 - f), z + H + j)
                                        _store8(dc * i * (1 - gc * gc), z + 2 * H + j)
                                        _store8(dh * tc * o * (1 - o), z + 3 * H + j)
                                        _store8(dc * f, nexts + j)
                                        j += 8
                                    }
                                    while j < H {
                                        let i = g[j], f = g[H + j], gc = g[2 * H + j], o = g[3 * H + j]
                                        let tc = tcs[j]
                                        let dh = dOuts[j] + recs[j]
                                        let dc = nexts[j] + dh * o * (1 - tc * tc)
                                        let cPrev = cPrevs[j]
                                        z[j] = dc * gc * i * (1 - i)
                                        z[H + j] = dc * cPrev * f * (1 - f)
                                        z[2 * H + j] = dc * i * (1 - gc * gc)
                                        z[3 * H + j] = dh * tc * o * (1 - o)
                                        nexts[j] = dc * f
                                        j += 1
                                    }
                                    (gp.baseAddress! + k * G).update(from: z, count: G)
                                }
                                if s > 0 {  // δh_rec = δZ W_hh for the running sequences
                                    _SmallProduct.gemm(m: running, n: H, k: G, a: gp.baseAddress!, lda: G,
                                                       b: whh.baseAddress!, ldb: H, c: rec.baseAddress!, ldc: H)
                                }
                            }
                                  }
                                }
                              }
                            }
                          }
                        }
                    }
                }
            }
        }
        // Each row's h of the step before it in the direction's order (zero at a sequence's first step).
        var hPrevious = pool.unset(N * H)
        for (b, n) in frames.enumerated() where n > 0 {
            let first = plan.rows(b, step: 0, reverse: reverse).row
            for j in 0..<H { hPrevious[first * H + j] = 0 }
            for s in 1..<n {
                let (t, prev) = plan.rows(b, step: s, reverse: reverse)
                for j in 0..<H { hPrevious[t * H + j] = trace.outputs[prev * H + j] }
            }
        }
        let full = adapter == nil
        var out = Direction(inputWeights: [Float](repeating: 0, count: full ? G * inputSize : 0),
                            recurrentWeights: [Float](repeating: 0, count: full ? G * H : 0), bias: [Float](repeating: 0, count: G))
        for t in 0..<N { for k in 0..<G { out.bias[k] += dz[t * G + k] } }
        dz.withUnsafeBufferPointer { dzp in
            input.withUnsafeBufferPointer { x in
                if let pair = adapter?[0] {
                    adapter![0] = projected(dzp, x, rows: N, count: G, pair: pair, pool: pool)
                } else {
                    out.inputWeights.withUnsafeMutableBufferPointer { dw in  // δW_ih = δZᵀ X
                        _BLAS.gemm(transposeA: true, transposeB: false, m: G, n: inputSize, k: N, a: dzp.baseAddress!, lda: G,
                                   b: x.baseAddress!, ldb: inputSize, beta: 0, c: dw.baseAddress!, ldc: inputSize)
                    }
                }
            }
            hPrevious.withUnsafeBufferPointer { h in
                if let pair = adapter?[1] {
                    adapter![1] = projected(dzp, h, rows: N, count: G, pair: pair, pool: pool)
                } else {
                    out.recurrentWeights.withUnsafeMutableBufferPointer { dw in  // δW_hh = Σ_t δz_t h_prevᵀ
                        _BLAS.gemm(transposeA: true, transposeB: false, m: G, n: H, k: N, a: dzp.baseAddress!, lda: G,
                                   b: h.baseAddress!, ldb: H, beta: 0, c: dw.baseAddress!, ldc: H)
                    }
                }
            }
            d.inputWeights.withUnsafeBufferPointer { w in
                inputGradient.withUnsafeMutableBufferPointer { dx in  // δX += δZ W_ih
                    _BLAS.gemm(transposeA: false, transposeB: false, m: N, n: inputSize, k: G, a: dzp.baseAddress!, lda: G,
                               b: w.baseAddress!, ldb: inputSize, beta: 1, c: dx.baseAddress!, ldc: inputSize)
                }
            }
        }
        pool.recycle(&dz)
        pool.recycle(&hPrevious)
        return out
    }

    /// The gradient of a pair's A and B where a weight's gradient is δW = δᵀ X (δ: `rows` × `count`, X: `rows` ×
    /// the pair's columns, both row-major), without forming δW (`count` × columns):
    ///
    ///     ∂L/∂A = Bᵀ δW = (δ B)ᵀ X        rows·r·(count + columns) products instead of rows·count·columns
    ///     ∂L/∂B = δW Aᵀ = δᵀ (X Aᵀ)
    ///
    /// Returned as a pair of the same shape (`a`: r × columns, `b`: count × r). Each product has r = 8 rows or columns:
    /// they run as small products (``_SmallProduct``), which read δ and X where they lie (a BLAS, or the library's
    /// packed kernel, copies the larger operand into panels first), the two with δ or X as the long side with the
    /// factor's r rows transposed in front (∂L/∂B as (Fᵀ δ)ᵀ).
    static func projected(_ delta: UnsafeBufferPointer<Float>, _ x: UnsafeBufferPointer<Float>, rows n: Int, count: Int,
                          pair p: LSTMAdapter.Pair, pool: FloatBufferPool) -> LSTMAdapter.Pair {
        precondition(p.rows == count && delta.count >= n * count && x.count >= n * p.columns)
        let r = p.a.count / p.columns
        var out = p
        var factor = pool.unset(n * r)       // δ B, then X Aᵀ (rows × r), each written by its product
        var factorT = pool.unset(r * n)      // the factor transposed (r × rows)
        var aT = pool.unset(p.columns * r)   // Aᵀ (columns × r)
        var dbT = pool.unset(r * count)      // (∂L/∂B)ᵀ (r × count)
        factor.withUnsafeMutableBufferPointer { f in
            factorT.withUnsafeMutableBufferPointer { ft in
                p.b.withUnsafeBufferPointer { b in
                    _SmallProduct.gemm(m: n, n: r, k: count, a: delta.baseAddress!, lda: count, b: b.baseAddress!, ldb: r,
                                       c: f.baseAddress!, ldc: r)
                }
                ink_transpose_f32(f.baseAddress!, Int32(n), Int32(r), Int32(r), ft.baseAddress!)
                out.a.withUnsafeMutableBufferPointer { da in
                    _SmallProduct.gemm(m: r, n: p.columns, k: n, a: ft.baseAddress!, lda: n, b: x.baseAddress!, ldb: p.columns,
                                       c: da.baseAddress!, ldc: p.columns)
                }
                aT.withUnsafeMutableBufferPointer { at in
                    p.a.withUnsafeBufferPointer { a in
                        ink_transpose_f32(a.baseAddress!, Int32(r), Int32(p.columns), Int32(p.columns), at.baseAddress!)
                    }
                    _SmallProduct.gemm(m: n, n: r, k: p.columns, a: x.baseAddress!, lda: p.columns, b: at.baseAddress!, ldb: r,
                                       c: f.baseAddress!, ldc: r)
                }
                ink_transpose_f32(f.baseAddress!, Int32(n), Int32(r), Int32(r), ft.baseAddress!)
                dbT.withUnsafeMutableBufferPointer { t in
                    _SmallProduct.gemm(m: r, n: count, k: n, a: ft.baseAddress!, lda: n, b: delta.baseAddress!, ldb: count,
                                       c: t.baseAddress!, ldc: count)
                    out.b.withUnsafeMutableBufferPointer { db in
                        ink_transpose_f32(t.baseAddress!, Int32(r), Int32(count), Int32(count), db.baseAddress!)
                    }
                }
            }
        }
        pool.recycle(&factor)
        pool.recycle(&factorT)
        pool.recycle(&aT)
        pool.recycle(&dbT)
        return out
    }

    /// The CTC loss of `labels` for `features` (T × inputDim) and its gradient with respect to every weight; nil
    /// where CTC cannot align them (see ``CTCGradient``).
    public func lossAndGradients(features: [Float], frames: Int, labels: [Int], blank: Int = 0) -> (loss: Double, gradients: Gradients)? {
        lossAndGradients(features: features, frames: frames, anyOf: [labels], blank: blank)
    }

    /// The loss of "any one of `labelings`" for `features`, −ln Σ_i P(labeling_i) (``CTCGradient/union(_:)``), and
    /// its gradient with respect to every weight: one backward pass of the logits' gradients weighted by each
    /// labeling's share. Labelings CTC cannot align are left out; nil where it aligns none. One labeling: its CTC
    /// loss and gradient.
    func lossAndGradients(features: [Float], frames: Int, anyOf labelings: [[Int]], blank: Int = 0) -> (loss: Double, gradients: Gradients)? {
        guard let (losses, g) = lossAndGradients(batch: [BatchItem(features: features, frames: frames, labelings: labelings)], blank: blank),
              let loss = losses[0] else { return nil }
        return (loss, g)
    }

    /// One sequence of a batch: its features (frames × inputDim), the texts any one of which it may read
    /// (``lossAndGradients(features:frames:anyOf:blank:)``), and the weight of its loss in the batch's sum.
    struct BatchItem: Sendable {
        var features: [Float]
        var frames: Int
        var labelings: [[Int]]
        var weight: Float = 1
    }

    /// A batch's losses (each sequence's, as ``lossAndGradients(features:frames:anyOf:blank:)`` gives it alone; nil
    /// where CTC aligns none of its texts) and the gradient of their weighted sum, Σ_b weight_b · loss_b over the
    /// sequences that align, with respect to every weight: one forward and one backward pass of the whole batch.
    /// Nil where no sequence aligns.
    /// With an `adapter`, the gradient with respect to its pairs (``gradients(_:logitsGradient:adapter:pool:)``).
    func lossAndGradients(batch: [BatchItem], blank: Int = 0, adapter: LSTMAdapter? = nil,
                          pool: FloatBufferPool = FloatBufferPool()) -> (losses: [Double?], gradients: Gradients)? {
        var features = pool.empty(reserving: batch.reduce(0) { $0 + $1.features.count })
        for item in batch { features.append(contentsOf: item.features) }
        var trace = forward(features, sequences: batch.map(\.frames), pool: pool)
        let C = classes
        var dY = pool.zeros(trace.logits.count)
        var losses: [Double?] = []
        var row = 0
        for (b, e) in batch.enumerated() {
            let rows = trace.sequenceFrames[b]
            let logits = FeatureMatrix(rows: rows, columns: C, values: Array(trace.logits[row * C..<(row + rows) * C]))
            let each = e.labelings.compactMap { CTCGradient.lossAndGradient($0, logits: logits, blank: blank) }
            if let union = CTCGradient.union(each.map(\.loss)) {
                losses.append(union.loss)
                for (w, one) in zip(union.weights, each) {
                    let s = Float(w) * e.weight
                    for i in one.gradient.indices { dY[row * C + i] += s * one.gradient[i] }
                }
            } else {
                losses.append(nil)
            }
            row += rows
        }
        let g = losses.contains(where: { $0 != nil }) ? gradients(trace, logitsGradient: dY, adapter: adapter, pool: pool) : nil
        pool.recycle(&dY)
        pool.recycle(&trace)
        return g.map { (losses, $0) }
    }
}

extension FloatBufferPool {
    /// Keeps every array of a spent trace.
    func recycle(_ trace: inout _FloatLSTMNetwork.Trace) {
        for l in trace.inputs.indices { recycle(&trace.inputs[l]) }
        for l in trace.forward.indices { recycle(&trace.forward[l]) }
        for l in trace.backward.indices { recycle(&trace.backward[l]) }
        recycle(&trace.headInput)
        recycle(&trace.logits)
    }

    /// Keeps the weights of a network a step of learning made (``LSTMAdapter/applied(to:pool:)``).
    func recycle(_ n: inout _FloatLSTMNetwork) {
        for l in n.layers.indices {
            recycle(&n.layers[l].forward.inputWeights); recycle(&n.layers[l].forward.recurrentWeights)
            recycle(&n.layers[l].backward.inputWeights); recycle(&n.layers[l].backward.recurrentWeights)
        }
        recycle(&n.headWeight)
    }

    func recycle(_ d: inout _FloatLSTMNetwork.DirectionTrace) {
        recycle(&d.gates); recycle(&d.cells); recycle(&d.cellTanh); recycle(&d.outputs)
    }
}
