import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// A network shaped like the CJK models' (`Fixtures/cjk-network/`, written by
/// `python3 -m inkrec_training cjk data fixture`): a CTC head over the 11,201 characters of `cjk_charset.json` + blank,
/// 8-bit weights, 2 small random bidirectional LSTM layers, features `resampled-v2` at 6 steps per line
/// height, and one generated ink of 永. `golden.json` holds the ink, its features (`features.py`) and
/// the reference log-probabilities of the 8-bit network (`quantize.QuantizedNet`): per frame the 10 most
/// likely classes and the mean over all classes, a sample of classes in every frame, and one frame in
/// full. `Training/tests/test_network_golden.py` checks the same file against PyTorch.
@Suite("A CJK-shaped network (11,202 classes, 8-bit) runs the PyTorch reference")
struct CJKNetworkGoldenTests {
    /// As `Int8NetworkGoldenTests` (the shipped 8-bit model).
    static let tolerance: Float = 2e-3

    static func golden() throws -> [String: Any] { try Fixtures.json("cjk-network/golden.json") }

    /// Little-endian float32 values from base64.
    static func floats(_ base64: Any?) throws -> [Float] {
        let text = try #require(base64 as? String)
        let data = try #require(Data(base64Encoded: text))
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
    }

    @Test("the features of a generated 永 (resampled-v2, 6 steps per line height) within 1e-5")
    func features() throws {
        let g = try Self.golden()
        let settings = try #require(g["featureSettings"] as? [String: Any])
        let scheme = try #require(FeatureExtractor.Scheme(rawValue: settings["scheme"] as! String))
        let steps = (settings["stepsPerLineHeight"] as! NSNumber).doubleValue
        #expect(scheme == .resampledV2 && steps == 6)
        let (ink, _) = Fixtures.ink(g["ink"]!)
        let got = try FeatureExtractor(scheme: scheme, stepsPerLineHeight: steps).features(for: ink)
        let expected = Fixtures.matrix(g["features"]!, columns: 4)
        #expect(got.rows == expected.rows)
        if got.rows == expected.rows { #expect(maxAbsDifference(got, expected) < 1e-5) }
    }

    @Test("log-probabilities over 11,202 classes within 2e-3, portable, AVX2, NEON and VNNI", arguments: Int8NetworkGoldenTests.kernels)
    func logProbabilities(kernel: _Int8Kernel) throws {
        let g = try Self.golden()
        let config = try JSONDecoder().decode(NetworkConfiguration.self,
                                              from: JSONSerialization.data(withJSONObject: g["network"]!))
        #expect(config.numClasses == 11_202 && config.precision == .int8 && config.reduceAfter == 1)
        let file = try SafeTensorsFile(contentsOf: Fixtures.url("cjk-network/\(config.weights)"))
        let network = try RecognitionNetwork(configuration: config, file: file, int8: kernel)
        #expect(network.computeKernels.hasPrefix("recurrent int8-\(kernel.rawValue), projection int8-\(kernel.rawValue) "))
        let x = Fixtures.matrix(g["features"]!, columns: 4)
        let got = network.logProbabilities(x)
        let frames = g["frames"] as! Int, C = config.numClasses
        #expect(got.rows == frames && got.columns == C)
        guard got.rows == frames, got.columns == C else { return }
        #expect(got.values.allSatisfy { $0.isFinite })
        var worst: Float = 0
        for (t, top) in (g["top"] as! [[[NSNumber]]]).enumerated() {
            let row = Array(got.values[(t * C)..<((t + 1) * C)])
            // The 10 most likely classes, with their values; no other class above the 10th.
            let classes = top.map { $0[0].intValue }
            for entry in top { worst = max(worst, abs(row[entry[0].intValue] - entry[1].floatValue)) }
            let tenth = top.last![1].floatValue
            let others = Set(0..<C).subtracting(classes).map { row[$0] }.max()!
            #expect(others <= tenth + Self.tolerance, "frame \(t): a class outside the reference's 10 best scores \(others)")
            // The mean over all classes (the row sum / C).
            let mean: Double = row.reduce(0.0) { $0 + Double($1) } / Double(C)
            let expectedMean = (g["meanLogProb"] as! [NSNumber])[t].doubleValue
            #expect(abs(mean - expectedMean) < Double(Self.tolerance), "frame \(t)")
            // A distribution: log Σ exp = 0.
            let m = row.max()!
            let sumExp: Double = row.reduce(0.0) { $0 + exp(Double($1 - m)) }
            let logSumExp = Double(m) + log(sumExp)
            #expect(abs(logSumExp) < 1e-4, "frame \(t)")
        }
        let sample = (g["sampleClasses"] as! [NSNumber]).map(\.intValue)
        let sampled = try Self.floats(g["sampleLogProbs"])
        #expect(sampled.count == frames * sample.count)
        for t in 0..<frames {
            for (i, c) in sample.enumerated() { worst = max(worst, abs(got[t, c] - sampled[t * sample.count + i])) }
        }
        let full = g["fullFrame"] as! Int
        let fullRow = try Self.floats(g["fullFrameLogProbs"])
        #expect(fullRow.count == C)
        for c in 0..<C { worst = max(worst, abs(got[full, c] - fullRow[c])) }
        #expect(worst < Self.tolerance, "largest difference from the reference: \(worst)")
    }
}
