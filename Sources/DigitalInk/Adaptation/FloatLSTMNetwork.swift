import Foundation

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

    /// What the forward pass keeps: each layer's input (T_l × in_l) and both directions' traces, the head's input
    /// and the logits (T' × C).
    struct Trace: Sendable {
        var inputs: [[Float]] = []
        var steps: [Int] = []
        var forward: [DirectionTrace] = []
        var backward: [DirectionTrace] = []
        var headInput: [Float] = []
        var logits: [Float] = []
        var outputFrames: Int { logits.count / max(1, classes) }
        var classes = 0
    }

    /// The gradient with respect to every weight, shaped as the weights.
    public struct Gradients: Sendable {
        var layers: [Layer]
        var headWeight: [Float]
        var headBias: [Float]
    }

    /// Runs `features` (T × inputDim, row after row) through the network, keeping the trace.
    func forward(_ features: [Float], frames T0: Int) -> Trace {
        var trace = Trace()
        trace.classes = classes
        let H = hidden
        var x = features, T = T0
        for (l, layer) in layers.enumerated() {
            trace.inputs.append(x)
            trace.steps.append(T)
            let f = Self.run(layer.forward, input: x, steps: T, inputSize: layer.inputSize, hidden: H, reverse: false)
            let b = Self.run(layer.backward, input: x, steps: T, inputSize: layer.inputSize, hidden: H, reverse: true)
            trace.forward.append(f)
            trace.backward.append(b)
            var out = [Float](repeating: 0, count: T * 2 * H)
            for t in 0..<T {
                for j in 0..<H {
                    out[t * 2 * H + j] = f.outputs[t * H + j]
                    out[t * 2 * H + H + j] = b.outputs[t * H + j]
                }
            }
            if reduceAfter == l + 1 {  // rows 2t, 2t + 1 side by side; a zero row pads an odd T
                if T % 2 == 1 { out += [Float](repeating: 0, count: 2 * H) }
                T = (T + 1) / 2
            }
            x = out
        }
        trace.headInput = x
        let F = headInputs, C = classes
        var logits = [Float](repeating: 0, count: T * C)
        for t in 0..<T { for k in 0..<C { logits[t * C + k] = headBias[k] } }
        x.withUnsafeBufferPointer { xp in
            headWeight.withUnsafeBufferPointer { w in
                logits.withUnsafeMutableBufferPointer { o in
                    _BLAS.gemm(transposeA: false, transposeB: true, m: T, n: C, k: F, a: xp.baseAddress!, lda: F,
                               b: w.baseAddress!, ldb: F, beta: 1, c: o.baseAddress!, ldc: C)
                }
            }
        }
        trace.logits = logits
        return trace
    }

    /// One direction over T steps (`reverse`: from T − 1 down to 0). σ and tanh as the engine computes them
    /// (`_sigmoid8`, `_tanh8`: |error| < 1e-6), 8 units at a time.
    static func run(_ d: Direction, input: [Float], steps T: Int, inputSize: Int, hidden H: Int, reverse: Bool) -> DirectionTrace {
        let G = 4 * H
        var z = [Float](repeating: 0, count: T * G)  // X W_ihᵀ + b, then the activated gates
        for t in 0..<T { for k in 0..<G { z[t * G + k] = d.bias[k] } }
        input.withUnsafeBufferPointer { x in
            d.inputWeights.withUnsafeBufferPointer { w in
                z.withUnsafeMutableBufferPointer { o in
                    _BLAS.gemm(transposeA: false, transposeB: true, m: T, n: G, k: inputSize, a: x.baseAddress!, lda: inputSize,
                               b: w.baseAddress!, ldb: inputSize, beta: 1, c: o.baseAddress!, ldc: G)
                }
            }
        }
        var cells = [Float](repeating: 0, count: T * H)
        var cellTanh = [Float](repeating: 0, count: T * H)
        var outputs = [Float](repeating: 0, count: T * H)
        var zeros = [Float](repeating: 0, count: H)
        z.withUnsafeMutableBufferPointer { zp in
            cells.withUnsafeMutableBufferPointer { cp in
                cellTanh.withUnsafeMutableBufferPointer { tp in
                    outputs.withUnsafeMutableBufferPointer { hp in
                        zeros.withUnsafeMutableBufferPointer { zero in
                            d.recurrentWeights.withUnsafeBufferPointer { whh in
                                for s in 0..<T {
                                    let t = reverse ? T - 1 - s : s
                                    let prev = reverse ? t + 1 : t - 1
                                    let g = zp.baseAddress! + t * G
                                    if s > 0 { _BLAS.gemv(m: G, n: H, a: whh.baseAddress!, x: hp.baseAddress! + prev * H, beta: 1, y: g) }
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
        return DirectionTrace(gates: z, cells: cells, cellTanh: cellTanh, outputs: outputs)
    }

    /// The gradient of a loss with respect to every weight, from its gradient with respect to the logits
    /// (T' × C, as ``CTCGradient`` gives it) and the trace of the forward pass that made them.
    func gradients(_ trace: Trace, logitsGradient dY: [Float]) -> Gradients {
        let H = hidden, C = classes, F = headInputs, T1 = trace.outputFrames
        precondition(dY.count == T1 * C)
        var g = Gradients(layers: layers.map { l in
            let zero = Direction(inputWeights: [Float](repeating: 0, count: l.forward.inputWeights.count),
                                 recurrentWeights: [Float](repeating: 0, count: l.forward.recurrentWeights.count),
                                 bias: [Float](repeating: 0, count: 4 * H))
            return Layer(inputSize: l.inputSize, forward: zero, backward: zero)
        }, headWeight: [Float](repeating: 0, count: C * F), headBias: [Float](repeating: 0, count: C))
        // Head: δW = δYᵀ X, δb = Σ_t δY_t, δX = δY W.
        var dX = [Float](repeating: 0, count: T1 * F)
        dY.withUnsafeBufferPointer { dy in
            trace.headInput.withUnsafeBufferPointer { x in
                g.headWeight.withUnsafeMutableBufferPointer { dw in
                    _BLAS.gemm(transposeA: true, transposeB: false, m: C, n: F, k: T1, a: dy.baseAddress!, lda: C,
                               b: x.baseAddress!, ldb: F, beta: 0, c: dw.baseAddress!, ldc: F)
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
        // Layers, last first. δX of the reduced rows is, unstacked, δ of the layer's outputs (the pad row dropped).
        for l in stride(from: layers.count - 1, through: 0, by: -1) {
            let T = trace.steps[l], layer = layers[l]
            // dX holds δ of this layer's output: T × 2H, or the reduced ⌈T/2⌉ × 4H, whose rows are the same
            // numbers in the same order (row t of the reduced is rows 2t, 2t + 1), the pad row last.
            var dOut = dX
            if dOut.count > T * 2 * H { dOut.removeLast(dOut.count - T * 2 * H) }
            var dIn = [Float](repeating: 0, count: T * layer.inputSize)
            for (reverse, d, tr) in [(false, layer.forward, trace.forward[l]), (true, layer.backward, trace.backward[l])] {
                let grad = Self.backward(d, trace: tr, input: trace.inputs[l], outputGradient: dOut, column: reverse ? H : 0,
                                         steps: T, inputSize: layer.inputSize, hidden: H, reverse: reverse, inputGradient: &dIn)
                if reverse { g.layers[l].backward = grad } else { g.layers[l].forward = grad }
            }
            dX = dIn
        }
        return g
    }

    /// Backpropagation through one direction: its weights' gradient; adds δx to `inputGradient` (T × in).
    /// `outputGradient` is T × 2H, this direction's columns from `column`.
    static func backward(_ d: Direction, trace: DirectionTrace, input: [Float], outputGradient dOut: [Float], column: Int,
                         steps T: Int, inputSize: Int, hidden H: Int, reverse: Bool, inputGradient: inout [Float]) -> Direction {
        let G = 4 * H
        var dz = [Float](repeating: 0, count: T * G)
        var dhRec = [Float](repeating: 0, count: H)  // W_hhᵀ δz of the step visited before (the direction's next)
        var dcNext = [Float](repeating: 0, count: H)  // δc of that step, times its f
        dz.withUnsafeMutableBufferPointer { dzp in
            d.recurrentWeights.withUnsafeBufferPointer { whh in
                for s in stride(from: T - 1, through: 0, by: -1) {
                    let t = reverse ? T - 1 - s : s
                    let prev = reverse ? t + 1 : t - 1
                    let a = t * G
                    for j in 0..<H {
                        let i = trace.gates[a + j], f = trace.gates[a + H + j], gc = trace.gates[a + 2 * H + j], o = trace.gates[a + 3 * H + j]
                        let tc = trace.cellTanh[t * H + j]
                        let dh = dOut[t * 2 * H + column + j] + dhRec[j]
                        let dc = dcNext[j] + dh * o * (1 - tc * tc)
                        let cPrev: Float = s > 0 ? trace.cells[prev * H + j] : 0
                        dzp[a + j] = dc * gc * i * (1 - i)
                        dzp[a + H + j] = dc * cPrev * f * (1 - f)
                        dzp[a + 2 * H + j] = dc * i * (1 - gc * gc)
                        dzp[a + 3 * H + j] = dh * tc * o * (1 - o)
                        dcNext[j] = dc * f
                    }
                    for j in 0..<H { dhRec[j] = 0 }
                    dhRec.withUnsafeMutableBufferPointer { r in
                        _BLAS.gemvTransposed(m: G, n: H, a: whh.baseAddress!, x: dzp.baseAddress! + a, y: r.baseAddress!)
                    }
                }
            }
        }
        var out = Direction(inputWeights: [Float](repeating: 0, count: G * inputSize),
                            recurrentWeights: [Float](repeating: 0, count: G * H), bias: [Float](repeating: 0, count: G))
        for t in 0..<T { for k in 0..<G { out.bias[k] += dz[t * G + k] } }
        dz.withUnsafeBufferPointer { dzp in
            input.withUnsafeBufferPointer { x in
                out.inputWeights.withUnsafeMutableBufferPointer { dw in  // δW_ih = δZᵀ X
                    _BLAS.gemm(transposeA: true, transposeB: false, m: G, n: inputSize, k: T, a: dzp.baseAddress!, lda: G,
                               b: x.baseAddress!, ldb: inputSize, beta: 0, c: dw.baseAddress!, ldc: inputSize)
                }
            }
            if T > 1 {
                trace.outputs.withUnsafeBufferPointer { h in
                    out.recurrentWeights.withUnsafeMutableBufferPointer { dw in  // δW_hh = Σ_t δz_t h_prevᵀ
                        // forward: δz_1…δz_{T−1} against h_0…h_{T−2}; backward: δz_0…δz_{T−2} against h_1…h_{T−1}
                        let z0 = reverse ? 0 : 1, h0 = reverse ? 1 : 0
                        _BLAS.gemm(transposeA: true, transposeB: false, m: G, n: H, k: T - 1, a: dzp.baseAddress! + z0 * G, lda: G,
                                   b: h.baseAddress! + h0 * H, ldb: H, beta: 0, c: dw.baseAddress!, ldc: H)
                    }
                }
            }
            d.inputWeights.withUnsafeBufferPointer { w in
                inputGradient.withUnsafeMutableBufferPointer { dx in  // δX += δZ W_ih
                    _BLAS.gemm(transposeA: false, transposeB: false, m: T, n: inputSize, k: G, a: dzp.baseAddress!, lda: G,
                               b: w.baseAddress!, ldb: inputSize, beta: 1, c: dx.baseAddress!, ldc: inputSize)
                }
            }
        }
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
        let trace = forward(features, frames: frames)
        let logits = FeatureMatrix(rows: trace.outputFrames, columns: classes, values: trace.logits)
        let each = labelings.compactMap { CTCGradient.lossAndGradient($0, logits: logits, blank: blank) }
        guard let union = CTCGradient.union(each.map(\.loss)) else { return nil }
        if each.count == 1 { return (each[0].loss, gradients(trace, logitsGradient: each[0].gradient)) }
        var dY = [Float](repeating: 0, count: each[0].gradient.count)
        for (w, e) in zip(union.weights, each) {
            let s = Float(w)
            for i in dY.indices { dY[i] += s * e.gradient[i] }
        }
        return (union.loss, gradients(trace, logitsGradient: dY))
    }
}
