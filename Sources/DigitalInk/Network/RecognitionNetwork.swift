import _InkKernels
import Foundation

/// The recognizer network: bidirectional LSTM layers, optional 2× time reduction, a linear head.
///
/// Shapes, with T input frames, H hidden units and C classes:
///
///     features            T  × inputDim
///     layer l             T_l × 2H        (T_l halves, rounded up, after layer `reduceAfter`)
///     time reduction      pad one zero row if T_l is odd, then view as T_l/2 × 4H (no copy)
///     head                T' × C          log-softmax per row ("ctc"), or
///                         1  × C          mean over time, then log-softmax ("classifier")
///
/// Weights use PyTorch's names: `lstms.{l}.weight_ih_l0[_reverse]`, `lstms.{l}.weight_hh_l0[_reverse]`,
/// `lstms.{l}.bias_ih_l0[_reverse]`, `lstms.{l}.bias_hh_l0[_reverse]`, `head.weight`, `head.bias`.
/// Immutable and `Sendable`: one network serves any number of concurrent forwards.
@_spi(Engine) public struct RecognitionNetwork: Sendable {
    public let configuration: NetworkConfiguration
    let layers: [BidirectionalLSTM]
    /// The head: head.weight transposed (headInput × C, for a non-transposed product) and head.bias;
    /// or, for precision `int8`, the 8-bit head.
    let head: BidirectionalLSTM.Projection
    /// Whether the log-softmax runs in AVX-512 (with the avx512 projection kernel, or 8-bit on VNNI).
    let avx512Softmax: Bool

    /// Loads and validates the weights named by `configuration` (checking every tensor's shape), to
    /// run with the kernels that `compute` chooses (it also sets OpenBLAS's thread count).
    public init(configuration: NetworkConfiguration, weightsURL: URL, compute: ComputeOptions = ComputeOptions()) throws(DigitalInkError) {
        try compute.validate()
        _BLAS.setThreads(compute.blasThreads)
        let file = try SafeTensorsFile(contentsOf: weightsURL)
        try self.init(configuration: configuration, file: file, kernel: compute.lstmKernel, projection: compute.projection,
                      int8: compute.int8Kernel)
    }

    /// `kernel`, `projection`: how the LSTM steps and projections run (tests compare the kernels; the
    /// engine takes the best ones). `int8`: how the products of an 8-bit network run; nil: `portable`
    /// when `kernel` is, else the fastest this CPU runs.
    init(configuration c: NetworkConfiguration, file: SafeTensorsFile, kernel: _LSTMKernel = .fastest,
         projection: _ProjectionKernel = .fastest, int8 int8Choice: _Int8Kernel? = nil) throws(DigitalInkError) {
        guard c.inputDim > 0, c.hidden > 0, c.layers > 0, c.numClasses > 1, (0...c.layers).contains(c.reduceAfter) else {
            throw .modelCorrupt(file: "config.json", reason: "network sizes must be positive and reduceAfter in 0...layers")
        }
        let H = c.hidden
        // Every tensor the configuration names must be there with its shape, and no other (a stray
        // tensor means the file was made for another network).
        var used: Set<String> = []
        func take(_ name: String, _ shape: [Int]) throws(DigitalInkError) -> [Float] {
            used.insert(name)
            return try file.floats(name, shape: shape)
        }
        func take8(_ name: String, _ shape: [Int]) throws(DigitalInkError) -> (values: [Int8], scale: [Float]) {
            used.insert(name)
            used.insert(name + ".scale")
            let values = try file.int8s(name, shape: shape)
            let scale = try file.floats(name + ".scale", shape: [shape[0]])
            guard scale.allSatisfy({ $0 > 0 }) else {
                throw .modelCorrupt(file: file.name, reason: "tensor \(name).scale has a scale that is not positive")
            }
            return (values, scale)
        }
        var layers: [BidirectionalLSTM] = []
        var inSize = c.inputDim
        let int8 = c.precision == .int8
        let int8Kernel: _Int8Kernel = int8Choice ?? (kernel == .portable ? .portable : .fastest)
        for l in 0..<c.layers where int8 {
            func direction(_ suffix: String) throws(DigitalInkError) -> BidirectionalLSTM.QuantizedDirection {
                let p = "lstms.\(l)."
                let wih = l == 0 ? nil : try take8(p + "weight_ih_l0" + suffix, [4 * H, inSize])
                let fih = l == 0 ? try take(p + "weight_ih_l0" + suffix, [4 * H, inSize]) : []
                let whh = try take8(p + "weight_hh_l0" + suffix, [4 * H, H])
                let bih = try take(p + "bias_ih_l0" + suffix, [4 * H])
                let bhh = try take(p + "bias_hh_l0" + suffix, [4 * H])
                return .init(inputWeights: wih, floatInputWeights: fih, recurrentWeights: whh, bias: zip(bih, bhh).map { $0 + $1 })
            }
            layers.append(BidirectionalLSTM(inputSize: inSize, hiddenSize: H, forward: try direction(""),
                                            backward: try direction("_reverse"), int8: int8Kernel, projection: projection))
            inSize = 2 * H * (c.reduceAfter == l + 1 ? 2 : 1)
        }
        for l in 0..<c.layers where !int8 {
            func direction(_ suffix: String) throws(DigitalInkError) -> BidirectionalLSTM.Direction {
                let p = "lstms.\(l)."
                let wih = try take(p + "weight_ih_l0" + suffix, [4 * H, inSize])
                let whh = try take(p + "weight_hh_l0" + suffix, [4 * H, H])
                let bih = try take(p + "bias_ih_l0" + suffix, [4 * H])
                let bhh = try take(p + "bias_hh_l0" + suffix, [4 * H])
                return .init(inputWeights: wih, recurrentWeights: whh, bias: zip(bih, bhh).map { $0 + $1 })
            }
            layers.append(BidirectionalLSTM(inputSize: inSize, hiddenSize: H,
                                            forward: try direction(""), backward: try direction("_reverse"), kernel: kernel,
                                            projection: projection))
            inSize = 2 * H * (c.reduceAfter == l + 1 ? 2 : 1)
        }
        let headHead: BidirectionalLSTM.Projection
        if int8 {
            let w = try take8("head.weight", [c.numClasses, inSize])
            headHead = .int8(_QuantizedAffineMap(weights: w.values, weightScale: w.scale, inputs: inSize, outputs: c.numClasses,
                                                 bias: try take("head.bias", [c.numClasses]), kernel: int8Kernel))
        } else {
            let headWeights = try take("head.weight", [c.numClasses, inSize])
            let headBias = try take("head.bias", [c.numClasses])
            headHead = .float(_AffineMap(
                weights: _transposed(headWeights, rows: c.numClasses, columns: inSize),
                inputs: inSize, outputs: c.numClasses, bias: headBias,
                kernel: c.head == .classifier ? .blas : projection))
        }
        let unused = Set(file.tensors.keys).subtracting(used)
        guard unused.isEmpty else {
            throw .modelCorrupt(file: file.name, reason: "tensors the configuration does not use: \(unused.sorted().prefix(8).joined(separator: ", "))"
                                + (unused.count > 8 ? " and \(unused.count - 8) more" : ""))
        }
        self.configuration = c
        self.layers = layers
        self.head = headHead
        switch headHead {
        case .float(let map): avx512Softmax = map.kernel == .avx512
        case .int8(let map): avx512Softmax = map.usesVNNI
        }
    }

    /// The kernel that runs the LSTM steps.
    var kernel: _LSTMKernel { layers.first?.kernel ?? .portable }
    /// The kernel that runs the LSTM input projections.
    var projection: _ProjectionKernel { layers.first?.projectionKernel ?? .blas }

    /// How this network runs on this CPU, for reports: the recurrent kernel (`portable`: BLAS sgemv and
    /// Swift SIMD; `avx2`; `avx2-f16`: 16-bit recurrent weights) and the projection kernel (`blas` or
    /// `avx512`), e.g. `"recurrent avx2-f16, projection avx512"`; for an 8-bit network the 8-bit kernel
    /// (`int8-vnni`, `int8-avx2`, `int8-neon`, `int8-portable`) and the float first layer's projection
    /// kernel, e.g. `"recurrent int8-avx2, projection int8-avx2 (first layer blas)"`. ``ComputeOptions``
    /// chooses them.
    public var computeKernels: String {
        if let q = layers.first?.int8Kernel { return "recurrent \(q), projection \(q) (first layer \(projection.rawValue))" }
        return "recurrent \(kernel.rawValue), projection \(projection.rawValue)"
    }

    /// The width of the head's input: the last layer's two directions, stacked in pairs where the network
    /// reduces after its last layer.
    var headInputs: Int {
        2 * configuration.hidden * (configuration.reduceAfter == configuration.layers ? 2 : 1)
    }

    /// Number of output frames for `frames` input frames.
    public func outputFrames(for frames: Int) -> Int {
        (frames + configuration.timeReduction - 1) / configuration.timeReduction
    }

    /// Runs the network. Returns per-frame log-probabilities (T' × C) for a CTC head, or one row of
    /// class log-probabilities for a classifier head. An input of 0 frames gives 0 rows.
    /// Complexity: O(T · layers · 8H · (in + H) + T' · C · in_head); scratch is allocated once per call.
    public func logProbabilities(_ features: FeatureMatrix) -> FeatureMatrix {
        logProbabilities(features, keepingHeadInput: false).logProbs
    }

    /// ``logProbabilities(_:)`` that also hands back the head's input (T' × the head's input width: the last
    /// layer's states, stacked in pairs where the network reduces after its last layer), the features a writer
    /// adaptation (``HeadAdapter``) reads, when `keepingHeadInput` is true (nil otherwise, for a classifier head and
    /// for 0 frames).
    func logProbabilities(_ features: FeatureMatrix, keepingHeadInput: Bool)
        -> (logProbs: FeatureMatrix, headInput: FeatureMatrix?)
    {
        let c = configuration, H = c.hidden
        precondition(features.columns == c.inputDim, "features have \(features.columns) columns, network expects \(c.inputDim)")
        var T = features.rows
        let C = c.numClasses
        let isClassifier = c.head == .classifier
        guard T > 0 else { return (FeatureMatrix(rows: 0, columns: C), nil) }
        var kept: FeatureMatrix?
        // Two ping-pong activation buffers big enough for T+1 rows of 2H (the +1 row is the reduction pad),
        // and one gate buffer of T × 8H (both directions).
        let actCount = (T + 1) * max(2 * H, c.inputDim)
        var a = [Float](repeating: 0, count: actCount)
        var b = [Float](repeating: 0, count: actCount)
        // (Not zeroed: every layer's projection writes all of its T × 8H gates before they are read.)
        let gateCount = BidirectionalLSTM.gateCount(steps: T, hiddenSize: H)
        var gates = [Float](unsafeUninitializedCapacity: gateCount) { _, count in count = gateCount }
        a.withUnsafeMutableBufferPointer { ap in ap.baseAddress!.update(from: features.values, count: features.values.count) }
        var width = c.inputDim
        var outRows = 0
        var result = [Float]()
        a.withUnsafeMutableBufferPointer { ap in
            b.withUnsafeMutableBufferPointer { bp in
                gates.withUnsafeMutableBufferPointer { gp in
                    var src = ap.baseAddress!, dst = bp.baseAddress!
                    for (l, layer) in layers.enumerated() {
                        layer.run(input: src, steps: T, output: dst, gates: gp.baseAddress!)
                        width = 2 * H
                        if c.reduceAfter == l + 1 {
                            if T % 2 == 1 { (dst + T * width).update(repeating: 0, count: width) }
                            T = (T + 1) / 2
                            width *= 2
                        }
                        swap(&src, &dst)
                    }
                    // Head.
                    if isClassifier {
                        var mean = [Float](repeating: 0, count: width)
                        for t in 0..<T { for j in 0..<width { mean[j] += src[t * width + j] } }
                        for j in 0..<width { mean[j] /= Float(T) }
                        switch head {
                        case .float(let map):
                            result = map.bias
                            mean.withUnsafeBufferPointer { m in
                                map.weights.withUnsafeBufferPointer { w in
                                    result.withUnsafeMutableBufferPointer { r in
                                        _BLAS.gemvTransposed(rows: width, columns: C, a: w.baseAddress!, x: m.baseAddress!,
                                                             y: r.baseAddress!)
                                    }
                                }
                            }
                        case .int8(let map):
                            result = [Float](repeating: 0, count: C)
                            mean.withUnsafeBufferPointer { m in
                                result.withUnsafeMutableBufferPointer { r in map.apply(m.baseAddress!, rows: 1, output: r.baseAddress!) }
                            }
                        }
                        outRows = 1
                    } else {
                        // (Not zeroed: the head writes every one of its T × C values; with thousands of
                        // classes, zeroing them first cost a few percent of the forward.)
                        let count = T * C
                        if keepingHeadInput {
                            kept = FeatureMatrix(rows: T, columns: width,
                                                 values: Array(UnsafeBufferPointer(start: src, count: T * width)))
                        }
                        result = [Float](unsafeUninitializedCapacity: count) { r, initialized in
                            head.apply(src, rows: T, output: r.baseAddress!)
                            initialized = count
                        }
                        outRows = T
                    }
                }
            }
        }
        result.withUnsafeMutableBufferPointer { r in
            if avx512Softmax {  // the avx512 (or VNNI) kernels are in use
                ink_log_softmax_rows_avx512(r.baseAddress!, Int32(outRows), Int32(C))
                return
            }
            for t in 0..<outRows { _logSoftmax(r.baseAddress! + t * C, count: C) }
        }
        return (FeatureMatrix(rows: outRows, columns: C, values: result), kept)
    }
}

/// In-place log-softmax of `count` values. O(count).
@inline(__always)
func _logSoftmax(_ v: UnsafeMutablePointer<Float>, count: Int) {
    var m = -Float.infinity
    for i in 0..<count { m = max(m, v[i]) }
    var s: Float = 0
    for i in 0..<count { s += expf(v[i] - m) }
    let lse = m + logf(s)
    for i in 0..<count { v[i] -= lse }
}
