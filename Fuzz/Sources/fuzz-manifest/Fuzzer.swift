// libFuzzer target: the model repository manifest reader (ModelManifest(data:)), then lookups and
// re-encoding of every manifest it accepted.
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let manifest = try? ModelManifest(data: data, source: "fuzz") else { return 0 }
    for tag in ["en-US", "en-GB", "zxx-Zsym-x-shapes", "iw", "de-Latn"] {
        guard let id = try? DigitalInkRecognitionModelIdentifier(languageTag: tag) else { continue }
        _ = manifest.model(for: id)
        _ = DigitalInkRecognitionModelIdentifier.bestMatch(for: id, in: manifest)
    }
    _ = manifest.model(for: .shapes)
    // What was accepted must encode, and the encoding must be accepted again.
    _ = try? ModelManifest(data: manifest.encoded(), source: "fuzz-roundtrip")
    return 0
}
