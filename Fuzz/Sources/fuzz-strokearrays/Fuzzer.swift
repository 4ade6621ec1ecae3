// libFuzzer target: the compact stroke-array reader (InkDocument(strokeArrays:)), and the writer on
// what it accepted.
import Foundation
@_spi(Engine) import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    if let doc = try? InkDocument(strokeArrays: data, source: "fuzz") {
        if let out = try? doc.strokeArraysData() {
            _ = try? InkDocument(strokeArrays: out, source: "fuzz-roundtrip")
        }
    }
    return 0
}
