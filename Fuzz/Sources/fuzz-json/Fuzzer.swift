// libFuzzer target: the project JSON ink reader (InkJSONReader.document), then the sniffing
// entry point InkDocument.read on the same bytes.
import Foundation
import FuzzMain
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start?.assumingMemoryBound(to: UInt8.self), count: count)
    if let doc = try? InkJSONReader.document(bytes: bytes, source: "fuzz") {
        _ = try? doc.validate()
        _ = doc.ink.strokes.count
    }
    let data = Data(bytes)
    _ = try? InkDocument.read(data, source: "fuzz")
    return 0
}
