import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The calibration stage (``CandidateCalibrator``): the returned candidates and their confidences.
@Suite("Line pipeline: the calibration stage")
struct CalibrationStageTests {
    let ranked = [TextHypothesis(text: "one", score: -1, symbols: [1, 2, 3]),
                  TextHypothesis(text: "on", score: -2, symbols: [1, 2]),
                  TextHypothesis(text: "o", score: -3, symbols: [1])]

    @Test("confidences over the pool's width only: a softmax without a calibration; beyond the pool 0")
    func pool() {
        let got = CandidateCalibrator.candidates(ranked, poolWidth: 2, calibration: nil, maxResultCount: 3)
        #expect(got.map(\.text) == ["one", "on", "o"])
        #expect(got.map(\.score) == [-1, -2, -3])
        let q = 1 / (1 + exp(Float(-1)))
        #expect(abs(got[0].confidence! - q) < 1e-6)
        #expect(abs(got[1].confidence! - (1 - q)) < 1e-6)
        #expect(got[2].confidence == 0)
        // Fewer results: the same confidences for those kept.
        let one = CandidateCalibrator.candidates(ranked, poolWidth: 2, calibration: nil, maxResultCount: 1)
        #expect(one.map(\.text) == ["one"])
        #expect(one[0].confidence == got[0].confidence)
    }

    @Test("a calibration maps each candidate's softmax and length as ConfidenceCalibration does")
    func calibrated() {
        let calibration = ConfidenceCalibration(temperature: 2, bias: 0.5, logProbabilityWeight: 1.5, lengthWeight: -0.25)
        let got = CandidateCalibrator.candidates(ranked, poolWidth: 3, calibration: calibration, maxResultCount: 3)
        let want = ConfidenceCalibration.confidences(scores: [-1, -2, -3], lengths: [3, 2, 1], calibration: calibration)
        #expect(got.map(\.confidence) == want)
        #expect(want != ConfidenceCalibration.confidences(scores: [-1, -2, -3], lengths: [3, 2, 1], calibration: nil))
    }

    @Test("the model's pool is its beam's width with the options' overrides")
    func modelPool() throws {
        let model = try StageFixture.model()
        var configuration = model.configuration
        configuration.decoder?.confidence = nil
        let calibrator = CandidateCalibrator(configuration: configuration, hasLanguageModel: true)
        let got = calibrator.candidates(ranked, options: StageFixture.options { $0.decoder.beamWidth = 1; $0.maxResultCount = 3 })
        #expect(got.map(\.confidence) == [1, 0, 0])
    }
}
