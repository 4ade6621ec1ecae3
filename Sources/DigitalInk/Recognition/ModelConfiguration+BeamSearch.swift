import Foundation

extension ModelConfiguration {
    /// The beam search that this text model's `decoder` settings describe, as a recognizer runs it.
    ///
    /// With `languageModel` false (no language model, or one not used) the LM weight, insertion bonus
    /// and end weight are 0 (the beam threshold stays). Settings in `options` that are set override the model's. The end symbol
    /// is the space character's class, when the model has one. Defaults where `config.json` has no
    /// decoder: beam width 16, weights 0.
    @_spi(Engine) public func beamSearch(languageModel: Bool, options: DigitalInkRecognizerOptions? = nil) -> CTCPrefixBeamSearch {
        let d = decoder
        func weight(_ override: Float?, _ value: Float?) -> Float { languageModel ? (override ?? value ?? 0) : 0 }
        let o = options?.decoder
        var search = CTCPrefixBeamSearch(beamWidth: o?.beamWidth ?? d?.beamWidth ?? 16,
                                   lmWeight: weight(o?.lmWeight, d?.lmWeight),
                                   insertionBonus: weight(o?.insertionBonus, d?.insertionBonus),
                                   blank: blankIndex ?? 0,
                                   endSymbol: labels.firstIndex(of: " ").map { $0 + 1 },
                                   endWeight: weight(o?.endWeight, d?.endWeight),
                                   beamThreshold: o?.beamThreshold ?? d?.beamThreshold ?? .infinity)
        search.symbolsPerFrame = o?.symbolsPerFrame ?? d?.symbolsPerFrame ?? .max
        return search
    }

    /// What joins a pre-context to the text after it: `options`' ``DecoderSettings/contextSeparator``
    /// when set, else the model's `decoder.contextSeparator`, else a space.
    @_spi(Engine) public func contextSeparator(options: DigitalInkRecognizerOptions? = nil) -> String {
        options?.decoder.contextSeparator ?? decoder?.contextSeparator ?? " "
    }

    /// How likely a page's line is to go on from the line above: `options`' ``DecoderSettings/lineContinuation``
    /// when set, else the model's `decoder.lineContinuation`, else ``DecoderSettings/defaultLineContinuation``.
    @_spi(Engine) public func lineContinuation(options: DigitalInkRecognizerOptions? = nil) -> Float {
        options?.decoder.lineContinuation ?? decoder?.lineContinuation ?? DecoderSettings.defaultLineContinuation
    }
}
