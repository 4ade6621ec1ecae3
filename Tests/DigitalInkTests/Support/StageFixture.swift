import Foundation
@_spi(Engine) @testable import DigitalInk

/// What the tests of the line pipeline's stages share: the shipped en-US model (loaded once) and
/// network outputs written by hand.
enum StageFixture {
    private static let loaded = Result { () throws(DigitalInkError) in try LoadedModel(directory: shippedModelDirectory) }

    /// The shipped en-US model.
    static func model() throws -> LoadedModel { try loaded.get() }

    /// Three frames of the model's classes: blank, one letter, blank, the letter frame split as
    /// `letter` gives it (the rest of it, 0.04, on the blank; every other class 1e-6).
    static func frames(_ letter: [Character: Float], model: LoadedModel) -> FeatureMatrix {
        let C = model.network.configuration.numClasses
        var m = FeatureMatrix(rows: 3, columns: C)
        m.values = [Float](repeating: logf(1e-6), count: 3 * C)
        m.values[0] = logf(0.98); m.values[2 * C] = logf(0.98)
        for (ch, p) in letter { m.values[C + model.symbolOfCharacter[ch]!] = logf(p) }
        m.values[C] = logf(0.04)
        return m
    }

    /// The shipped model's options, with `edit` applied.
    static func options(_ edit: (inout DigitalInkRecognizerOptions) -> Void = { _ in }) -> DigitalInkRecognizerOptions {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        edit(&options)
        return options
    }
}
