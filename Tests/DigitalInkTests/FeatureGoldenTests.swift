import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Preprocessing matches the Python reference")
struct FeatureGoldenTests {
    @Test("golden features, within 1e-5", arguments: FeatureExtractor.Scheme.allCases)
    func goldenFeatures(scheme: FeatureExtractor.Scheme) throws {
        let golden = try Fixtures.json("features-golden-\(scheme.rawValue).json")
        #expect(golden["scheme"] as? String == scheme.rawValue)
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 8)
        for c in cases {
            let (ink, area) = Fixtures.ink(c["ink"]!)
            let expected = Fixtures.matrix(c["features"]!, columns: 4)
            let got = try FeatureExtractor(scheme: scheme).features(for: ink, writingArea: area)
            #expect(got.rows == expected.rows, "\(c["name"]!)")
            if got.rows == expected.rows {
                #expect(maxAbsDifference(got, expected) < 1e-5, "\(c["name"]!)")
            }
        }
    }

    @Test("resampled-v2: a line of text is scaled like each of its words; resampled-v1 shrinks it")
    func lineLengthDoesNotChangeTheScale() throws {
        // A zig-zag "word" 40 units wide and 30 tall, written once and then four times on a line.
        let word = [Stroke(points: stride(from: 0, through: 40, by: 5).map { x in
            StrokePoint(x: Float(x), y: (x / 5) % 2 == 0 ? 0 : 30)
        })]
        func line(_ n: Int) -> Ink {
            Ink(strokes: (0..<n).flatMap { k in
                word.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x + Float(k * 55), y: $0.y) }) }
            })
        }
        let v2 = FeatureExtractor(scheme: .resampledV2)
        let one = try v2.features(for: line(1)), four = try v2.features(for: line(4))
        #expect(four.rows == 4 * one.rows)
        #expect(abs(four[1, 0] - one[1, 0]) < 1e-5 && abs(four[1, 1] - one[1, 1]) < 1e-5)
        let v1Eight = try FeatureExtractor(scheme: .resampledV1).features(for: line(8))
        #expect(try v1Eight.rows < v2.features(for: line(8)).rows / 2)
    }

    @Test("an empty ink and empty strokes have no features")
    func emptyInk() throws {
        #expect(try FeatureExtractor().features(for: Ink(strokes: [])).rows == 0)
        #expect(try FeatureExtractor().features(for: Ink(strokes: [Stroke(points: []), Stroke(points: [])])).rows == 0)
    }

    @Test("pen-up flags mark the first point of every stroke")
    func penUp() throws {
        let ink = Ink(strokes: [
            Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: 10, y: 10)]),
            Stroke(points: [StrokePoint(x: 20, y: 0)]),
        ])
        let f = try FeatureExtractor().features(for: ink)
        let flags = (0..<f.rows).map { f[$0, 2] }
        #expect(flags.first == 1)
        #expect(flags.last == 1)
        #expect(flags.filter { $0 == 1 }.count == 2)
    }
}
