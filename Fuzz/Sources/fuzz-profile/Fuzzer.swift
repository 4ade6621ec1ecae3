// libFuzzer target: the writer profile reader (`WriterProfile(data:)`, a profile's bytes as an app keeps them
// or a server receives them), then what a recognizer does with a profile it accepted: `data()` again (the same
// bytes), and the adapter applied to three frames of head input (any shape the reader allows).
import Foundation
@_spi(Engine) @testable import DigitalInk

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let profile = try? WriterProfile(data: data) else { return 0 }
    precondition(profile.data() == data, "a profile read back is not the bytes it was read from")
    let adapter = profile.state.withLock { $0.adapter }
    let frames = 3
    let f = FeatureMatrix(rows: frames, columns: adapter.inputs,
                          values: (0..<(frames * adapter.inputs)).map { Float($0 % 7) - 3 })
    let p = FeatureMatrix(rows: frames, columns: adapter.classes,
                          values: [Float](repeating: -Float(log(Double(adapter.classes))), count: frames * adapter.classes))
    let out = adapter.apply(headInput: f, logProbs: p)
    precondition(out.rows == frames && out.columns == adapter.classes)
    _ = adapter.lossAndGradient(headInput: f, logProbs: p, labels: adapter.classes > 1 ? [1] : [])
    return 0
}
