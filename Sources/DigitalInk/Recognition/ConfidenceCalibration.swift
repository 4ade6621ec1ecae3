import Foundation

/// How a text model turns its candidates' scores into confidences: calibrated probabilities that a
/// candidate is exactly right (`decoder.confidence` in `config.json`, fitted by
/// `python3 -m inkrec_training latin evaluate hints confidence --fit` on tuning words and lines of held-out writers).
///
/// For the final hypotheses of one ink, best first, with scores `s_i` (the top ``DecoderSettings``
/// beam width of them) and texts of `n_i` characters:
///
///     q_i = softmax(s / temperature)_i
///     confidence_i = sigmoid(bias + logProbabilityWeight · log q_i + lengthWeight · log(1 + n_i))
///
/// A model without a calibration uses `q_i` itself. The reference is `fit`/`apply` in
/// `python3 -m inkrec_training latin evaluate hints`; `Tests/DigitalInkTests/Fixtures/confidence.json` pins both.
@_spi(Engine) public struct ConfidenceCalibration: Sendable, Hashable, Codable {
    public var temperature: Float
    public var bias: Float
    public var logProbabilityWeight: Float
    public var lengthWeight: Float

    public init(temperature: Float, bias: Float, logProbabilityWeight: Float, lengthWeight: Float) {
        self.temperature = temperature
        self.bias = bias
        self.logProbabilityWeight = logProbabilityWeight
        self.lengthWeight = lengthWeight
    }

    /// The confidence of each hypothesis (`scores` and `lengths` in the same order); `calibration`
    /// nil gives the softmax at temperature 1. Non-finite scores get 0. O(n).
    public static func confidences(scores: [Float], lengths: [Int], calibration: ConfidenceCalibration?) -> [Float] {
        let t = Double(calibration?.temperature ?? 1)
        let finite = scores.filter(\.isFinite)
        guard let top = finite.max() else { return scores.map { _ in 0 } }
        let scaled = scores.map { $0.isFinite ? (Double($0) - Double(top)) / t : -Double.infinity }
        let logSum = log(scaled.reduce(0) { $0 + exp($1) })
        return zip(scaled, lengths).map { z, n in
            let logQ = z - logSum
            guard logQ.isFinite else { return 0 }
            guard let c = calibration else { return Float(exp(logQ)) }
            let x = Double(c.bias) + Double(c.logProbabilityWeight) * logQ + Double(c.lengthWeight) * log1p(Double(n))
            return Float(1 / (1 + exp(-x)))
        }
    }

    func validate(file: String) throws(DigitalInkError) {
        guard temperature.isFinite, temperature > 0, temperature <= 10_000 else {
            throw .modelCorrupt(file: file, reason: "decoder.confidence.temperature must be in (0, 10000]")
        }
        for (name, w) in [("bias", bias), ("logProbabilityWeight", logProbabilityWeight), ("lengthWeight", lengthWeight)] {
            guard w.isFinite, abs(w) <= 10_000 else {
                throw .modelCorrupt(file: file, reason: "decoder.confidence.\(name) must be finite, at most 10000 in size")
            }
        }
    }
}
