import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("The engine runs PyTorch's network exactly")
struct NetworkGoldenTests {
    /// The recurrent kernels this CPU runs (the portable one always; AVX2 + FMA on x86-64 CPUs that have it).
    static let kernels = _LSTMKernel.allCases.filter(\.isAvailable)
    /// Every pair of a recurrent and a projection kernel this CPU runs.
    static let engines: [EngineKernels] = kernels.flatMap { k in
        _ProjectionKernel.allCases.filter(\.isAvailable).map { EngineKernels(recurrent: k, projection: $0) }
    }

    @Test("tiny networks (CTC and classifier heads) match PyTorch within 1e-5, with every kernel",
          arguments: ["tiny-network", "tiny-classifier"], engines)
    func tiny(name: String, engine: EngineKernels) throws {
        let kernel = engine.recurrent
        let golden = try Fixtures.json("\(name)/golden.json")
        let cfgData = try JSONSerialization.data(withJSONObject: golden["network"]!)
        let config = try JSONDecoder().decode(NetworkConfiguration.self, from: cfgData)
        let file = try SafeTensorsFile(contentsOf: Fixtures.url("\(name)/weights.safetensors"))
        let net = try RecognitionNetwork(configuration: config, file: file, kernel: kernel, projection: engine.projection)
        #expect(net.projection == engine.projection)  // 8H = 64
        // These random weights are not half-precision values: the 16-bit kernel falls back to `avx2`.
        #expect(net.kernel == (kernel == .avx2f16 ? .avx2 : kernel))
        for c in golden["cases"] as! [[String: Any]] {
            let x = Fixtures.matrix(c["features"]!, columns: 4)
            let expected = Fixtures.matrix(c["logProbs"]!, columns: config.numClasses)
            let got = net.logProbabilities(x)
            #expect(got.rows == expected.rows)
            #expect(maxAbsDifference(got, expected) < 1e-5)
        }
    }

    @Test("the shipped model's features match PyTorch's, and a float model's log-probabilities within 1e-4, with every kernel",
          arguments: engines)
    func shippedModel(engine: EngineKernels) throws {
        let kernel = engine.recurrent
        let golden = try Fixtures.json("model-golden.json")
        let model = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent(golden["model"] as! String))
        // An 8-bit shipped model is checked against its own reference by `Int8NetworkGoldenTests`; its
        // features are checked here.
        let isFloat = (model.configuration.network.precision ?? .float32) == .float32
        let file = try SafeTensorsFile(contentsOf: model.directory.appendingPathComponent(model.configuration.network.weights))
        let network = try RecognitionNetwork(configuration: model.configuration.network, file: file, kernel: kernel,
                                             projection: engine.projection)
        if isFloat {
            #expect(network.projection == engine.projection)
            #expect(network.kernel == kernel || (kernel == .avx2f16 && network.kernel == .avx2))
        }
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 3)
        for c in cases {
            let (ink, _) = Fixtures.ink(c["ink"]!)
            let features = try model.features.features(for: ink)
            let expectedFeatures = Fixtures.matrix(c["features"]!, columns: 4)
            #expect(features.rows == expectedFeatures.rows)
            #expect(maxAbsDifference(features, expectedFeatures) < 1e-5)
            guard isFloat else { continue }
            let expected = Fixtures.matrix(c["logProbs"]!, columns: model.network.configuration.numClasses)
            let got = network.logProbabilities(expectedFeatures)
            #expect(got.rows == expected.rows)
            #expect(maxAbsDifference(got, expected) < 1e-4)
        }
    }

    /// One layer with weights that are multiples of 1/1024 in [-0.5, 0.5] (all exact in half precision).
    static func halfExactLayer(kernel: _LSTMKernel, projection: _ProjectionKernel, H: Int = 16, input: Int = 5) -> BidirectionalLSTM {
        var rng = SplitMix(seed: 7)
        func weights(_ n: Int) -> [Float] { (0..<n).map { _ in Float(Int(rng.next() % 1025) - 512) / 1024 } }
        func direction() -> BidirectionalLSTM.Direction {
            .init(inputWeights: weights(4 * H * input), recurrentWeights: weights(4 * H * H), bias: weights(4 * H))
        }
        return BidirectionalLSTM(inputSize: input, hiddenSize: H, forward: direction(), backward: direction(), kernel: kernel,
                                 projection: projection)
    }

    /// Hidden sizes 16, 24 and 40: 4H = 64, 96 and 160 gates, which the packed kernels split into panels of
    /// 64 or 96 gates and of 8 in different ways.
    @Test("every kernel computes the same layer within 1e-5; the 16-bit one runs weights that are half-precision values",
          arguments: [16, 24, 40])
    func kernelsAgree(H: Int) {
        let T = 13, input = 5  // 13 steps: two register blocks of 6 rows and one row left over
        var rng = SplitMix(seed: 11)
        let x = (0..<(T * input)).map { _ in Float(Int(rng.next() % 2001) - 1000) / 500 }
        var outputs: [[Float]] = []
        for engine in Self.engines {
            let layer = Self.halfExactLayer(kernel: engine.recurrent, projection: engine.projection, H: H, input: input)
            #expect(layer.kernel == engine.recurrent)
            #expect(layer.projectionKernel == engine.projection)
            var out = [Float](repeating: .nan, count: T * 2 * H)
            var gates = [Float](repeating: 0, count: BidirectionalLSTM.gateCount(steps: T, hiddenSize: H))
            x.withUnsafeBufferPointer { xp in
                out.withUnsafeMutableBufferPointer { op in
                    gates.withUnsafeMutableBufferPointer { gp in
                        layer.run(input: xp.baseAddress!, steps: T, output: op.baseAddress!, gates: gp.baseAddress!)
                    }
                }
            }
            #expect(out.allSatisfy { $0.isFinite })
            outputs.append(out)
        }
        for other in outputs.dropFirst() {
            #expect(zip(outputs[0], other).map { abs($0 - $1) }.max()! < 1e-5)
        }
    }

    @Test("the recognizer uses the fastest kernel this CPU runs")
    func bestKernel() throws {
        let golden = try Fixtures.json("model-golden.json")
        let model = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent(golden["model"] as! String))
        let fastest: _LSTMKernel = _LSTMKernel.avx2f16.isAvailable ? .avx2f16 : _LSTMKernel.avx2.isAvailable ? .avx2 : .portable
        #expect(_LSTMKernel.fastest == fastest)
        let portable = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent(golden["model"] as! String),
                                       compute: ComputeOptions(recurrentKernel: .portable, projectionKernel: .blas))
        if model.configuration.network.precision == .int8 {
            // 8-bit models: VNNI where the CPU has it, else AVX2, else NEON (arm64), else the portable integer
            // kernels; the portable ones when asked, and AVX2 when `avx2` (or `avx2-f16`) is asked, VNNI or not
            // (NEON on arm64).
            let neon = _Int8Kernels.hasNEON ? "int8-neon" : "int8-portable"
            let q = _Int8Kernels.hasVNNI ? "int8-vnni" : _Int8Kernels.hasAVX2 ? "int8-avx2" : neon
            #expect(model.network.computeKernels == "recurrent \(q), projection \(q) (first layer \(_ProjectionKernel.fastest.rawValue))")
            #expect(portable.network.computeKernels == "recurrent int8-portable, projection int8-portable (first layer blas)")
            let a = _Int8Kernels.hasAVX2 ? "int8-avx2" : neon
            for named in [ComputeOptions.RecurrentKernel.avx2, .avx2F16] {
                let avx2 = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent(golden["model"] as! String),
                                           compute: ComputeOptions(recurrentKernel: named, projectionKernel: .blas))
                #expect(avx2.network.computeKernels == "recurrent \(a), projection \(a) (first layer blas)")
            }
            return
        }
        #expect(model.network.kernel == _LSTMKernel.fastest)
        #expect(model.network.projection == _ProjectionKernel.fastest)
        #expect(model.network.computeKernels == "recurrent \(_LSTMKernel.fastest.rawValue), projection \(_ProjectionKernel.fastest.rawValue)")
        // ComputeOptions chooses the portable ones.
        #expect(portable.network.computeKernels == "recurrent portable, projection blas")
    }
}

/// A recurrent kernel and a projection kernel, as one test argument.
struct EngineKernels: Sendable, CustomTestStringConvertible {
    var recurrent: _LSTMKernel
    var projection: _ProjectionKernel
    var testDescription: String { "\(recurrent.rawValue) + \(projection.rawValue)" }
}

/// A small deterministic generator for test data: the library's SplitMix64.
typealias SplitMix = SplitMix64

@Suite("The 8-bit engine runs the quantized reference")
struct Int8NetworkGoldenTests {
    /// The shipped text model is 8-bit (`python3 -m inkrec_training latin export quantize`); `Fixtures/model-golden-int8.json`
    /// holds the reference log-probabilities of `model-golden.json`'s inks under it.
    static let kernels: [_Int8Kernel] = Int8KernelTests.kernels

    /// The 8-bit recurrent input round(h · 127) turns a difference of a unit in the last place (the first layer's
    /// float products summed in another order) into one code more or less once in a while, and that moves an
    /// ink's log-probabilities by a few hundredths: the reference itself moves by up to 0.08 when its features
    /// change by one part in a million (the shared Latin network has many activations near a rounding boundary).
    /// So: most inks within 2e-3 (the same arithmetic), every ink within its case's tolerance (at least 0.1) with the
    /// same best class in every frame. Each fixture's case carries its own `tolerance` (written by `latin export
    /// quantize`: 1.5 times the most the reference moves when its features change by one part in a million, at
    /// least 0.1): the Devanagari, Bengali, Tamil and Thai networks move up to 0.2 so, and the five fixtures written
    /// before them had their tolerances added on 2026-12-06, when OpenBLAS's kernels on an AMD EPYC moved the Korean
    /// network's reading of an ink by 0.135 (its tolerance 0.40: the reference moves by 0.27 so).
    /// `model-golden-int8.json` is en-US's network (the shared Latin one); `model-golden-int8-vi.json` the same inks
    /// under the Vietnamese network (`latin export quantize --int8-golden-of Models/vi`); `model-golden-int8-ru.json`
    /// under the Cyrillic network (`--int8-golden-of Models/ru`); `model-golden-int8-el.json` under the Greek one;
    /// `model-golden-int8-ko.json` under the Korean (jamo) one; `model-golden-int8-he.json` under the Hebrew one;
    /// `model-golden-int8-ar.json` under the Arabic-script one; `model-golden-int8-hi.json` under the Devanagari
    /// one; `model-golden-int8-bn.json` under the Bengali one; `-ta` and `-th` under the Tamil and Thai ones.
    static let fixtures = ["model-golden-int8.json", "model-golden-int8-vi.json", "model-golden-int8-ru.json",
                           "model-golden-int8-el.json", "model-golden-int8-ko.json", "model-golden-int8-he.json",
                           "model-golden-int8-ar.json", "model-golden-int8-hi.json", "model-golden-int8-bn.json",
                           "model-golden-int8-ta.json", "model-golden-int8-th.json"]

    @Test("log-probabilities of held-out inks within 2e-3 of the reference (0.1 where an 8-bit activation rounds the other way), portable, AVX2, NEON and VNNI, each shipped network", arguments: kernels, fixtures)
    func model(kernel: _Int8Kernel, fixture: String) throws {
        let golden = try Fixtures.json(fixture)
        let dir = try #require(Self.int8ModelDirectory(golden["model"] as! String))
        let model = try LoadedModel(directory: dir)
        #expect(model.configuration.network.precision == .int8)
        let file = try SafeTensorsFile(contentsOf: dir.appendingPathComponent(model.configuration.network.weights))
        let network = try RecognitionNetwork(configuration: model.configuration.network, file: file, int8: kernel)
        #expect(network.computeKernels.hasPrefix("recurrent int8-\(kernel.rawValue), projection int8-\(kernel.rawValue) "))
        let cases = golden["cases"] as! [[String: Any]]
        var exact = 0
        for c in cases {
            let x = Fixtures.matrix(c["features"]!, columns: 4)
            let expected = Fixtures.matrix(c["logProbs"]!, columns: model.configuration.network.numClasses)
            let got = network.logProbabilities(x)
            try #require(got.rows == expected.rows && got.columns == expected.columns)
            let difference = maxAbsDifference(got, expected)
            let tolerance = try #require(c["tolerance"] as? Double, "\(fixture): \(c["id"] ?? "") has no tolerance")
            #expect(difference < Float(tolerance), "\(c["id"] ?? "")")
            if difference < 2e-3 { exact += 1 }
            for t in 0..<got.rows {
                let row = { (m: FeatureMatrix) in (0..<m.columns).max { m[t, $0] < m[t, $1] }! }
                #expect(row(got) == row(expected), "frame \(t)")
            }
        }
        #expect(2 * exact >= cases.count, "\(exact) of \(cases.count) inks within 2e-3")
    }

    /// The shipped model the fixture was made from; it must be 8-bit.
    static func int8ModelDirectory(_ model: String) -> URL? {
        let shipped = Fixtures.modelsDirectory.appendingPathComponent(model)
        return FileManager.default.fileExists(atPath: shipped.path) ? shipped : nil
    }
}
