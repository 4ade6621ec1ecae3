import Foundation

/// A model's `config.json`: what the engine needs to run it. Written by `python3 -m inkrec_training latin export english`.
///
/// ```json
/// {"formatVersion": 1, "identifier": "en-US", "kind": "text",
///  "features": {"scheme": "resampled-v2", "stepsPerLineHeight": 4},
///  "network": {"weights": "weights.safetensors", "inputDim": 4, "hidden": 96, "layers": 3,
///              "numClasses": 166, "reduceAfter": 1, "head": "ctc"},
///  "labels": [" ", "!", ...], "blankIndex": 0,
///  "decoder": {"languageModel": "lm.bin", "lmWeight": 0.9, "insertionBonus": 2.0, "beamWidth": 32,
///              "endWeight": 1.0}}
/// ```
/// For a text model `labels` are the characters of classes 1...; for a shapes model (`kind` "shapes")
/// they name classes 0... and there is no blank and no decoder. A text model whose labels are not the
/// text's characters says how they spell it in `textForm` (``TextForm``); a model of a script written
/// right to left says so in `"direction": "rtl"` (``WritingDirection``; absent: `"ltr"`).
@_spi(Engine) public struct ModelConfiguration: Sendable, Hashable, Codable {
    public struct Features: Sendable, Hashable, Codable {
        /// A ``FeatureExtractor/Scheme`` raw value: `resampled-v2` (text) or `resampled-v1` (shapes).
        public var scheme: String
        public var stepsPerLineHeight: Double
    }

    public struct Decoder: Sendable, Hashable, Codable {
        /// Path of the character language model, relative to `config.json`; nil for none.
        public var languageModel: String?
        public var lmWeight: Float
        public var insertionBonus: Float
        public var beamWidth: Int
        /// Weight of the language model's probability that the text ends after the last character
        /// (a space follows it), added to the final hypotheses' scores; absent means 0.
        public var endWeight: Float?
        /// The beam threshold (``CTCPrefixBeamSearch/beamThreshold``): prefixes ranked more than this
        /// below the frame's best are dropped; absent: none (the beam stays `beamWidth` wide).
        public var beamThreshold: Float?
        /// The most symbols a frame may extend the prefixes with (``CTCPrefixBeamSearch/symbolsPerFrame``);
        /// absent: all above the floor.
        public var symbolsPerFrame: Int?
        /// What joins a pre-context to the text written after it (``DecoderSettings/contextSeparator``):
        /// at most ``DecoderSettings/maxContextSeparatorLength`` whitespace characters; absent: a
        /// space. `""` for a language written without spaces between words (Chinese, Japanese).
        public var contextSeparator: String?
        /// How likely a page's line is to go on from the line above (``DecoderSettings/lineContinuation``),
        /// in `0...1`; absent: ``DecoderSettings/defaultLineContinuation``.
        public var lineContinuation: Float?
        /// How scores become confidences; absent: the softmax of the final hypotheses' scores.
        public var confidence: ConfidenceCalibration?
        /// The best candidates re-ranked under stretched views of the ink (``ViewRescoring``); absent: none.
        public var viewRescoring: ViewRescoring?
    }

    /// How a text model's labels spell text, where they are not its characters (`textForm` in
    /// `config.json`).
    public enum TextForm: String, Sendable, CaseIterable {
        /// The labels are conjoining Hangul jamo (initials U+1100–U+1112, vowels U+1161–U+1175, finals
        /// U+11A8–U+11C2) besides other characters, each label one Unicode scalar: text is read as the
        /// jamo of its precomposed syllables, and the symbols' jamo are composed into syllables again.
        case hangulJamo = "hangul-jamo"
    }

    public static let supportedFormatVersion = 1

    public var formatVersion: Int
    public var identifier: String
    public var kind: String
    public var features: Features
    public var network: NetworkConfiguration
    public var labels: [String]
    public var blankIndex: Int?
    public var decoder: Decoder?
    /// How the labels spell text: a ``TextForm`` raw value (`"hangul-jamo"`), or absent (nil) where the
    /// labels are the text's characters, as for most models. ``load(from:)`` rejects any other value.
    public var textForm: String?
    /// The direction the model's script is written in: a ``WritingDirection`` raw value (`"ltr"`,
    /// `"rtl"`), or absent (nil) for left to right. ``load(from:)`` rejects any other value.
    public var direction: String?

    /// The model's text form; nil where its labels are the text's characters (``load(from:)`` has
    /// checked that `textForm` names one).
    var labelTextForm: TextForm? { textForm.flatMap(TextForm.init(rawValue:)) }

    /// The model's writing direction (``direction``; left to right where absent). ``load(from:)`` has
    /// checked that `direction` names one.
    public var writingDirection: WritingDirection { direction.flatMap(WritingDirection.init(rawValue:)) ?? .leftToRight }

    /// The model's kind; ``load(from:)`` has checked that `kind` names one.
    var modelKind: ModelKind { ModelKind(configurationName: kind) ?? .text }

    /// Reads and checks `config.json`: format version, feature scheme, label count against the
    /// network's classes, decoder settings. Errors name the file and the field.
    public static func load(from url: URL) throws(DigitalInkError) -> ModelConfiguration {
        let name = url.lastPathComponent
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .modelCorrupt(file: name, reason: "cannot read: \(error.localizedDescription)")
        }
        let config: ModelConfiguration
        do { config = try JSONDecoder().decode(ModelConfiguration.self, from: data) } catch {
            throw .modelCorrupt(file: name, reason: "not a valid model configuration: \(describe(error))")
        }
        try config.validate(file: name)
        return config
    }

    /// A decoding error as the field it is about and what is wrong with it
    /// (`decoder.contextSeparator: expected String`); other errors as they describe themselves.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        func field(_ c: DecodingError.Context) -> String { c.codingPath.isEmpty ? "the file" : path(c.codingPath) }
        switch error {
        case .typeMismatch(let type, let c): return "\(field(c)): expected \(type)"
        case .valueNotFound(let type, let c): return "\(field(c)): expected \(type), found null"
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .dataCorrupted(let c): return "\(field(c)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// The ranges `config.json` values must lie in: wide enough for any model this engine runs,
    /// narrow enough that no size computed from them overflows or asks for unbounded memory.
    enum Limits {
        static let hidden = 4_096
        static let layers = 16
        static let classes = 65_536
        static let stepsPerLineHeight = 64.0
        static let weight: Float = 10_000
    }

    /// Rejects a file path that could leave the model directory or the models root: see
    /// ``ModelFileReference`` (a file of the model directory, or `../<folder>/<file>` for a file
    /// shared with other models). Symbolic links are checked when the file is opened.
    static func checkRelativePath(_ path: String, field: String, file: String) throws(DigitalInkError) {
        guard ModelFileReference.form(of: path) != nil else {
            throw .modelCorrupt(
                file: file,
                reason: "\(field) \"\(path)\" must be a relative path inside the model directory, or ../<folder>/<file> for a shared file")
        }
    }

    func validate(file: String) throws(DigitalInkError) {
        func bad(_ r: String) -> DigitalInkError { .modelCorrupt(file: file, reason: r) }
        guard formatVersion == Self.supportedFormatVersion else { throw bad("formatVersion \(formatVersion) is not supported") }
        guard FeatureExtractor.Scheme(rawValue: features.scheme) != nil else {
            throw bad("feature scheme \(features.scheme) is not supported (\(FeatureExtractor.Scheme.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard features.stepsPerLineHeight > 0, features.stepsPerLineHeight <= Limits.stepsPerLineHeight else {
            throw bad("features.stepsPerLineHeight must be in (0, \(Limits.stepsPerLineHeight)]")
        }
        guard network.inputDim == FeatureExtractor.featureDimension else { throw bad("network.inputDim must be \(FeatureExtractor.featureDimension)") }
        guard (1...Limits.hidden).contains(network.hidden) else { throw bad("network.hidden must be in 1...\(Limits.hidden)") }
        guard (1...Limits.layers).contains(network.layers) else { throw bad("network.layers must be in 1...\(Limits.layers)") }
        guard (2...Limits.classes).contains(network.numClasses) else { throw bad("network.numClasses must be in 2...\(Limits.classes)") }
        guard (0...network.layers).contains(network.reduceAfter) else { throw bad("network.reduceAfter must be in 0...network.layers") }
        try Self.checkRelativePath(network.weights, field: "network.weights", file: file)
        if let lm = decoder?.languageModel { try Self.checkRelativePath(lm, field: "decoder.languageModel", file: file) }
        guard let modelKind = ModelKind(configurationName: kind) else {
            throw bad("unknown kind \(kind) (\(ModelKind.configurationNames.keys.sorted().joined(separator: ", ")))")
        }
        if let direction, WritingDirection(rawValue: direction) == nil {
            throw bad("direction: unknown \"\(direction)\" (known: \(WritingDirection.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        switch modelKind {
        case .text:
            guard blankIndex == 0 else { throw bad("blankIndex must be 0") }
            guard labels.count + 1 == network.numClasses else { throw bad("\(labels.count) labels for \(network.numClasses) classes (labels + blank)") }
            guard labels.allSatisfy({ $0.count == 1 }) else { throw bad("every label of a text model must be one character") }
            guard (network.head ?? .ctc) == .ctc else { throw bad("a text model needs a ctc head") }
            if let textForm {
                guard let form = TextForm(rawValue: textForm) else {
                    throw bad("textForm: unknown \"\(textForm)\" (known: \(TextForm.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                switch form {
                case .hangulJamo:
                    guard labels.allSatisfy({ $0.unicodeScalars.count == 1 }) else {
                        throw bad("textForm \(textForm): every label must be one Unicode scalar")
                    }
                }
            }
            if let d = decoder {
                guard (1...DecoderSettings.maxBeamWidth).contains(d.beamWidth) else { throw bad("decoder.beamWidth must be in 1...\(DecoderSettings.maxBeamWidth)") }
                if let t = d.beamThreshold, !(t > 0) { throw bad("decoder.beamThreshold must be positive") }
                if let k = d.symbolsPerFrame, k < 1 { throw bad("decoder.symbolsPerFrame must be positive") }
                if let separator = d.contextSeparator, let reason = DecoderSettings.contextSeparatorProblem(separator) {
                    throw bad("decoder.contextSeparator \(reason)")
                }
                if let p = d.lineContinuation, !(0...1).contains(p) {
                    throw bad("decoder.lineContinuation must be in 0...1")
                }
                for (name, w) in [("lmWeight", d.lmWeight), ("insertionBonus", d.insertionBonus), ("endWeight", d.endWeight ?? 0)] {
                    guard w.isFinite, abs(w) <= Limits.weight else { throw bad("decoder.\(name) must be finite, at most \(Limits.weight) in size") }
                }
                try d.confidence?.validate(file: file)
                try d.viewRescoring?.validate(file: file)
            }
        case .classifier:
            if let textForm { throw bad("textForm \"\(textForm)\" is for text models only") }
            guard labels.count == network.numClasses else { throw bad("\(labels.count) labels for \(network.numClasses) classes") }
            guard network.head == .classifier else { throw bad("a shapes model needs a classifier head") }
        }
    }
}

extension FeatureExtractor {
    /// The feature extractor a model's configuration asks for. An unknown scheme name (which
    /// ``ModelConfiguration/load(from:)`` rejects) falls back to `resampled-v2`.
    @_spi(Engine) public init(_ features: ModelConfiguration.Features) {
        self.init(scheme: Scheme(rawValue: features.scheme) ?? .resampledV2,
                  stepsPerLineHeight: features.stepsPerLineHeight)
    }
}
