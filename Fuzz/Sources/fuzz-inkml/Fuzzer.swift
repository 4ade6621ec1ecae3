// libFuzzer target: the W3C InkML reader (InkMLReader.read, XMLParser underneath).
import Foundation
import FuzzMain
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    if let doc = try? InkMLReader.read(data, source: "fuzz") {
        _ = try? doc.validate()
        // Round trip through the writer: what was read must be writable.
        _ = try? doc.inkMLData()
    }
    return 0
}
