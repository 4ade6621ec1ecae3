// libFuzzer target: the writer profile reader (`WriterProfile(data:)`, a profile's bytes as an app keeps them
// or a server receives them), then what a recognizer does with a profile it accepted: `data()` again (the same
// bytes), and the change applied: a version-1 head adapter to three frames of head input (any shape the reader
// allows), a version-2 change to every weight folded into a small network where it fits its shapes.
import Foundation
@_spi(Engine) @testable import DigitalInk

/// A network of 2 inputs, 2 hidden units, one layer and 3 classes: what a version-2 profile is checked against.
let smallNetwork: _FloatLSTMNetwork = {
    let direction = _FloatLSTMNetwork.Direction(inputWeights: [Float](repeating: 0.1, count: 8 * 2),
                                                recurrentWeights: [Float](repeating: 0.1, count: 8 * 2),
                                                bias: [Float](repeating: 0, count: 8))
    return _FloatLSTMNetwork(hidden: 2, reduceAfter: 1, classes: 3,
                             layers: [_FloatLSTMNetwork.Layer(inputSize: 2, forward: direction, backward: direction)],
                             headWeight: [Float](repeating: 0.1, count: 3 * 8), headBias: [0, 0, 0])
}()

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let profile = try? WriterProfile(data: data) else { return 0 }
    precondition(profile.data() == data, "a profile read back is not the bytes it was read from")
    switch profile.state.withLock({ $0.change }) {
    case .head(let adapter):
        let frames = 3
        let f = FeatureMatrix(rows: frames, columns: adapter.inputs,
                              values: (0..<(frames * adapter.inputs)).map { Float($0 % 7) - 3 })
        let p = FeatureMatrix(rows: frames, columns: adapter.classes,
                              values: [Float](repeating: -Float(log(Double(adapter.classes))), count: frames * adapter.classes))
        let out = adapter.apply(headInput: f, logProbs: p)
        precondition(out.rows == frames && out.columns == adapter.classes)
        _ = adapter.lossAndGradient(headInput: f, logProbs: p, labels: adapter.classes > 1 ? [1] : [])
    case .network(let adapter):
        // Applied only to a network whose shapes it fits (WriterProfile.adaptation(for:)): checked against a small one.
        precondition(adapter.count == WriterProfileFormat.size(of: adapter) / 4 - 16 - 2 * adapter.pairs.count)
        if adapter.fits(smallNetwork) { _ = adapter.applied(to: smallNetwork) }
    }
    return 0
}
