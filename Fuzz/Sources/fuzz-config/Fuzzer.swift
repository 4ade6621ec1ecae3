// libFuzzer target: the model configuration reader (config.json): decode as ModelConfiguration.load
// does, validate, then build the feature extractor and the beam search it describes.
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let config = try? JSONDecoder().decode(ModelConfiguration.self, from: data) else { return 0 }
    do { try config.validate(file: "config.json") } catch { return 0 }
    _ = FeatureExtractor(config.features)
    _ = config.beamSearch(languageModel: true)
    _ = config.beamSearch(languageModel: false)
    return 0
}
