import Foundation
import Testing
@testable import DigitalInk

@Suite("Preprocessing matches the Python reference")
struct FeatureGoldenTests {
    @Test("golden features, within 1e-5")
    func goldenFeatures() throws {
        let golden = try Fixtures.json("features-golden.json")
        #expect(golden["scheme"] as? String == FeatureExtractor.scheme)
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 8)
        for c in cases {
            let (ink, area) = Fixtures.ink(c["ink"]!)
            let expected = Fixtures.matrix(c["features"]!, columns: 4)
            let got = FeatureExtractor().features(for: ink, writingArea: area)
            #expect(got.rows == expected.rows, "\(c["name"]!)")
            if got.rows == expected.rows {
                #expect(maxAbsDifference(got, expected) < 1e-5, "\(c["name"]!)")
            }
        }
    }

    @Test("an empty ink and empty strokes have no features")
    func emptyInk() {
        #expect(FeatureExtractor().features(for: Ink(strokes: [])).rows == 0)
        #expect(FeatureExtractor().features(for: Ink(strokes: [Stroke(points: []), Stroke(points: [])])).rows == 0)
    }

    @Test("pen-up flags mark the first point of every stroke")
    func penUp() {
        let ink = Ink(strokes: [
            Stroke(points: [StrokePoint(x: 0, y: 0), StrokePoint(x: 10, y: 10)]),
            Stroke(points: [StrokePoint(x: 20, y: 0)]),
        ])
        let f = FeatureExtractor().features(for: ink)
        let flags = (0..<f.rows).map { f[$0, 2] }
        #expect(flags.first == 1)
        #expect(flags.last == 1)
        #expect(flags.filter { $0 == 1 }.count == 2)
    }
}
