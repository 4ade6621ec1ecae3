/// Overrides of a text model's decoder settings (`decoder` in its `config.json`), for tuning.
///
/// Every setting left `nil` takes the model's value. Settings are checked when a recognition starts
/// (``validate()``): a beam width outside `1...maxBeamWidth` or a weight that is not finite is an
/// ``DigitalInkError/invalidOption(name:reason:)``.
///
/// ```swift
/// var options = DigitalInkRecognizerOptions(model: model)
/// options.decoder.beamWidth = 16          // faster, slightly less accurate
/// options.decoder.lmWeight = 0.8
/// ```
public struct DecoderSettings: Sendable, Hashable, Codable {
    /// The widest beam accepted: 1,024 (the shipped models use 64).
    public static let maxBeamWidth = 1_024
    /// The longest ``contextSeparator`` accepted, in characters: 4.
    public static let maxContextSeparatorLength = 4

    /// Prefixes kept per frame of the beam search.
    public var beamWidth: Int?
    /// Weight of the language model's log-probability of the text.
    public var lmWeight: Float?
    /// Score added per output character (counteracts the language model's preference for short text).
    public var insertionBonus: Float?
    /// Weight of the language model's log-probability that the text ends after its last character.
    public var endWeight: Float?
    /// Beam threshold, in natural-log units: after each frame, prefixes ranked more than this below the
    /// best are dropped (never below the number of results asked for); `.infinity` keeps the whole
    /// beam. Smaller is faster. Not applied with a ``DigitalInkRecognizerOptions/vocabulary``.
    public var beamThreshold: Float?
    /// The most symbols one frame may extend the prefixes with (its most likely ones). Smaller is
    /// faster and takes less memory on frames where the network is unsure of everything.
    public var symbolsPerFrame: Int?
    /// What joins a pre-context to the text written after it: whitespace, at most
    /// ``maxContextSeparatorLength`` characters. The models' default is a space: after a
    /// ``RecognitionContext/preContext`` that ends inside a line (not in whitespace) the text may start
    /// with it at no cost from the ink, when the language model says a new word starts, and
    /// ``DigitalInkRecognizer/recognizePage(_:context:)`` joins each line's text to the next line's
    /// pre-context with it. `""`, the setting of the models of languages written without spaces
    /// (`ja`, `zh-Hans`, `zh-Hant`), joins them directly: no candidate starts with a space. A
    /// separator of more than one character joins the lines of a page but is never put before a
    /// candidate.
    public var contextSeparator: String?
    /// How likely, in `0...1`, a line of a page is to go on from the line above, against starting
    /// afresh (a new sentence, a list item, a heading): ``DigitalInkRecognizer/recognizePage(_:context:)``
    /// reads each line below the first under both pre-contexts, the line above's text or none, and
    /// weighs each candidate's two scores by this prior. `1` reads every line after the line above
    /// only; the models' default is ``defaultLineContinuation``.
    public var lineContinuation: Float?

    /// How far stretched views of the ink move the best candidates' scores, for a model that rescores
    /// with them (`decoder.viewRescoring` in its `config.json`: `en-US`): each candidate's score moves
    /// by this weight times the mean, over the ink and its copies stretched horizontally, of its CTC
    /// log-likelihood less that under the ink as written, and the candidates are re-ranked. `0` turns
    /// the rescoring off: one network pass instead of three, slightly less accurate. Ignored by models
    /// without view rescoring.
    public var viewWeight: Float?

    /// The ``lineContinuation`` of a model whose `config.json` sets none: 0.5.
    public static let defaultLineContinuation: Float = 0.5

    public init(beamWidth: Int? = nil, lmWeight: Float? = nil, insertionBonus: Float? = nil, endWeight: Float? = nil,
                beamThreshold: Float? = nil, symbolsPerFrame: Int? = nil, contextSeparator: String? = nil,
                lineContinuation: Float? = nil, viewWeight: Float? = nil) {
        self.viewWeight = viewWeight
        self.contextSeparator = contextSeparator
        self.lineContinuation = lineContinuation
        self.beamThreshold = beamThreshold
        self.symbolsPerFrame = symbolsPerFrame
        self.beamWidth = beamWidth
        self.lmWeight = lmWeight
        self.insertionBonus = insertionBonus
        self.endWeight = endWeight
    }

    /// Throws ``DigitalInkError/invalidOption(name:reason:)`` for a beam width outside
    /// `1...maxBeamWidth`, a non-finite weight, a context separator that is not at most
    /// ``maxContextSeparatorLength`` whitespace characters, or a line continuation outside `0...1`.
    public func validate() throws(DigitalInkError) {
        if let b = beamWidth, !(1...Self.maxBeamWidth).contains(b) {
            throw .invalidOption(name: "beamWidth", reason: "\(b) is outside 1...\(Self.maxBeamWidth)")
        }
        if let t = beamThreshold, !(t > 0) { throw .invalidOption(name: "beamThreshold", reason: "\(t) is not positive") }
        if let k = symbolsPerFrame, k < 1 { throw .invalidOption(name: "symbolsPerFrame", reason: "\(k) is not positive") }
        for (name, value) in [("lmWeight", lmWeight), ("insertionBonus", insertionBonus), ("endWeight", endWeight), ("viewWeight", viewWeight)] {
            if let v = value, !v.isFinite { throw .invalidOption(name: name, reason: "\(v) is not a finite number") }
        }
        if let s = contextSeparator, let reason = Self.contextSeparatorProblem(s) { throw .invalidOption(name: "contextSeparator", reason: reason) }
        if let p = lineContinuation, !(0...1).contains(p) { throw .invalidOption(name: "lineContinuation", reason: "\(p) is outside 0...1") }
    }

    /// What is wrong with `separator` as a ``contextSeparator`` (nil: nothing): more than
    /// ``maxContextSeparatorLength`` characters, or a character that is not whitespace.
    static func contextSeparatorProblem(_ separator: String) -> String? {
        if separator.count > maxContextSeparatorLength {
            return "must be at most \(maxContextSeparatorLength) characters (it has \(separator.count))"
        }
        if let c = separator.first(where: { !$0.isWhitespace }) {
            return "must be whitespace or empty (it has \"\(c)\")"
        }
        return nil
    }
}
