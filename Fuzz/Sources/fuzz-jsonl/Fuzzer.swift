// libFuzzer target: the JSON Lines batch reader (InkBatchReader over in-memory data). Small chunk
// and line-length limits are used so that chunk boundaries and over-long lines are exercised.
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let data = Data(bytes: start, count: count)
    // Default limits, then tiny ones (the first byte picks the chunk size).
    for entry in InkBatchReader(data: data, source: "fuzz") {
        _ = entry.document?.ink.strokes.count
        _ = entry.error.map { "\($0)" }
    }
    var small = InkBatchReader(data: data, source: "fuzz")
    small.chunkSize = Int(data[data.startIndex] % 64) + 1
    small.maxLineLength = 4096
    for entry in small { _ = entry.line }
    return 0
}
