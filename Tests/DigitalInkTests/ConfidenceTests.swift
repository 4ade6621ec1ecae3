import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Confidence: calibrated probabilities on every text candidate")
struct ConfidenceTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            var scores: [Float?]
            var lengths: [Int]
            var calibration: ConfidenceCalibration?
            var expected: [Float]
        }
        var cases: [Case]
    }

    @Test("Swift computes the confidences python3 -m inkrec_training latin evaluate hints computes (golden fixture)")
    func golden() throws {
        let url = Fixtures.url("confidence.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        #expect(fixture.cases.count >= 4)
        for c in fixture.cases {
            let got = ConfidenceCalibration.confidences(scores: c.scores.map { $0 ?? -.infinity }, lengths: c.lengths, calibration: c.calibration)
            #expect(got.count == c.expected.count)
            for (g, e) in zip(got, c.expected) { #expect(abs(g - e) < 1e-5, "\(got) vs \(c.expected)") }
        }
    }

    @Test("every candidate of the shipped model has a confidence in 0...1, in the order of the scores; a clear word is confident")
    func shipped() async throws {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = 10
        let recognizer = DigitalInkRecognizer(options: options)
        for name in ["hello.json", "line.json", "digits.json"] {
            let result = try await recognizer.recognize(try sample(name).ink)
            let confidences = result.candidates.map { $0.confidence ?? -1 }
            #expect(confidences.allSatisfy { (0...1).contains($0) }, "\(name): \(confidences)")
            #expect(confidences == confidences.sorted(by: >), "\(name): \(confidences)")
            #expect(confidences.reduce(0, +) <= 1.5)
        }
        let hello = try await recognizer.recognize(try sample("hello.json").ink)
        #expect(hello.best!.confidence! > 0.7)
        // The same candidates whatever maxResultCount: the confidence comes from the whole beam (the beam
        // threshold keeps at least as many prefixes as results are asked for, so a far-off prefix may differ).
        options.maxResultCount = 1
        let one = try await DigitalInkRecognizer(options: options).recognize(try sample("hello.json").ink)
        #expect(abs((one.best?.confidence ?? 0) - (hello.best?.confidence ?? 1)) < 1e-4)
    }

    @Test("a configuration with an invalid calibration is refused by name")
    func invalidCalibration() throws {
        let bad = ConfidenceCalibration(temperature: 0, bias: 0, logProbabilityWeight: 1, lengthWeight: 0)
        #expect(throws: DigitalInkError.modelCorrupt(file: "config.json", reason: "decoder.confidence.temperature must be in (0, 10000]")) {
            try bad.validate(file: "config.json")
        }
        let nan = ConfidenceCalibration(temperature: 1, bias: .nan, logProbabilityWeight: 1, lengthWeight: 0)
        #expect(throws: DigitalInkError.self) { try nan.validate(file: "config.json") }
    }
}
