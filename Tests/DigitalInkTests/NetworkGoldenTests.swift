import Foundation
import Testing
@testable import DigitalInk

@Suite("The engine runs PyTorch's network exactly")
struct NetworkGoldenTests {
    @Test("tiny networks (CTC and classifier heads) match PyTorch within 1e-5", arguments: ["tiny-network", "tiny-classifier"])
    func tiny(name: String) throws {
        let golden = try Fixtures.json("\(name)/golden.json")
        let cfgData = try JSONSerialization.data(withJSONObject: golden["network"]!)
        let config = try JSONDecoder().decode(NetworkConfiguration.self, from: cfgData)
        let net = try RecognitionNetwork(configuration: config, weightsURL: Fixtures.url("\(name)/weights.safetensors"))
        for c in golden["cases"] as! [[String: Any]] {
            let x = Fixtures.matrix(c["features"]!, columns: 4)
            let expected = Fixtures.matrix(c["logProbs"]!, columns: config.numClasses)
            let got = net.logProbabilities(x)
            #expect(got.rows == expected.rows)
            #expect(maxAbsDifference(got, expected) < 1e-5)
        }
    }

    @Test("the shipped model matches PyTorch on held-out inks within 1e-4")
    func shippedModel() throws {
        let golden = try Fixtures.json("model-golden.json")
        let model = try LoadedModel(directory: Fixtures.modelsDirectory.appendingPathComponent(golden["model"] as! String))
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 3)
        for c in cases {
            let (ink, _) = Fixtures.ink(c["ink"]!)
            let features = model.features.features(for: ink)
            let expectedFeatures = Fixtures.matrix(c["features"]!, columns: 4)
            #expect(features.rows == expectedFeatures.rows)
            #expect(maxAbsDifference(features, expectedFeatures) < 1e-5)
            let expected = Fixtures.matrix(c["logProbs"]!, columns: model.network.configuration.numClasses)
            let got = model.network.logProbabilities(expectedFeatures)
            #expect(got.rows == expected.rows)
            #expect(maxAbsDifference(got, expected) < 1e-4)
        }
    }
}
