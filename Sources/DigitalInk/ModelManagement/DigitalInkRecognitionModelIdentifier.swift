import Foundation

/// Names a recognition model by a BCP-47 language tag, as ML Kit's
/// `DigitalInkRecognitionModelIdentifier` does.
///
/// Text models are named by language, optionally with script and region (`en-US`, `sr-Latn`,
/// `zh-Hant-TW`). Models that do not recognize text use the private-use form ML Kit uses:
/// `zxx-Zsym-x-shapes`, `zxx-Zsye-x-emoji`, `zxx-Zsym-x-autodraw`.
///
/// The tag is kept in canonical case: language lower case, script title case, region upper case,
/// everything else lower case. Two identifiers are equal when their canonical tags are equal.
///
/// To turn a user's language tag into the identifier of a model that exists, use
/// ``from(languageTag:)``, which matches on a best-effort basis (`en-GB` finds the English model
/// when there is no British one). ``init(languageTag:)`` only parses; it does not check that a
/// model exists.
public struct DigitalInkRecognitionModelIdentifier: Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    /// The canonical BCP-47 tag, for example `en-US` or `zxx-Zsym-x-shapes`.
    public let languageTag: String
    /// The primary language subtag in lower case, for example `en`, or `zxx` for non-text models.
    public let languageSubtag: String
    /// The ISO 15924 script subtag in title case (`Latn`, `Hant`, `Zsym`), if the tag has one.
    public let scriptSubtag: String?
    /// The region subtag in upper case (`US`) or a UN M.49 code (`419`), if the tag has one.
    public let regionSubtag: String?
    /// The private-use part after `-x-` in lower case (`shapes` in `zxx-Zsym-x-shapes`), if any.
    public let privateUseSubtag: String?

    /// Parses and canonicalizes a BCP-47 language tag. `_` is accepted as a separator.
    ///
    /// Parsing does not consult any repository: the identifier may name a model that does not
    /// exist. Use ``from(languageTag:)`` to find an existing model.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` when the text is not
    ///   a well-formed language tag.
    public init(languageTag: String) throws(DigitalInkError) {
        let raw = languageTag.trimmingCharacters(in: .whitespaces)
        func fail(_ reason: String) -> DigitalInkError {
            .malformedInput(source: "language tag \"\(languageTag)\"", line: nil, field: nil, reason: reason)
        }
        guard !raw.isEmpty else { throw fail("the tag is empty") }
        let subtags = raw.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
            .map { String($0) }
        for subtag in subtags {
            guard !subtag.isEmpty else { throw fail("empty subtag") }
            guard subtag.count <= 8, subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw fail("subtag \"\(subtag)\" is not 1 to 8 ASCII letters or digits")
            }
        }

        var index = 0
        let language = subtags[0].lowercased()
        guard language.allSatisfy(\.isLetter), language.count >= 2, language.count != 4 else {
            throw fail("\"\(subtags[0])\" is not a language subtag (2, 3 or 5 to 8 letters)")
        }
        var canonical = [language]
        index = 1
        // Extended language subtags (up to three 3-letter subtags), e.g. zh-yue.
        var extlangs = 0
        while index < subtags.count, extlangs < 3, language.count <= 3,
            subtags[index].count == 3, subtags[index].allSatisfy(\.isLetter)
        {
            canonical.append(subtags[index].lowercased())
            index += 1
            extlangs += 1
        }
        var script: String? = nil
        if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(\.isLetter) {
            let s = subtags[index].lowercased()
            script = s.prefix(1).uppercased() + s.dropFirst()
            canonical.append(script!)
            index += 1
        }
        var region: String? = nil
        if index < subtags.count {
            let s = subtags[index]
            if (s.count == 2 && s.allSatisfy(\.isLetter)) || (s.count == 3 && s.allSatisfy(\.isNumber)) {
                region = s.uppercased()
                canonical.append(region!)
                index += 1
            }
        }
        // Variants: 5 to 8 characters, or 4 starting with a digit.
        while index < subtags.count {
            let s = subtags[index]
            let isVariant = s.count >= 5 || (s.count == 4 && s.first!.isNumber)
            guard isVariant else { break }
            canonical.append(s.lowercased())
            index += 1
        }
        // Extensions: a singleton other than x, then one or more subtags of 2 to 8 characters.
        while index < subtags.count, subtags[index].count == 1, subtags[index].lowercased() != "x" {
            canonical.append(subtags[index].lowercased())
            index += 1
            var count = 0
            while index < subtags.count, subtags[index].count >= 2 {
                canonical.append(subtags[index].lowercased())
                index += 1
                count += 1
            }
            guard count > 0 else { throw fail("extension \"\(subtags[index - 1])\" has no subtags") }
        }
        var privateUse: String? = nil
        if index < subtags.count, subtags[index].lowercased() == "x" {
            let rest = subtags[(index + 1)...].map { $0.lowercased() }
            guard !rest.isEmpty else { throw fail("\"x\" is not followed by a private-use subtag") }
            privateUse = rest.joined(separator: "-")
            canonical.append("x")
            canonical.append(contentsOf: rest)
            index = subtags.count
        }
        guard index == subtags.count else {
            throw fail("unexpected subtag \"\(subtags[index])\"")
        }

        self.languageTag = canonical.joined(separator: "-")
        self.languageSubtag = language
        self.scriptSubtag = script
        self.regionSubtag = region
        self.privateUseSubtag = privateUse
    }

    /// Parses a tag known to be well-formed (the built-in constants).
    private init(wellFormed tag: String) {
        // A constant that does not parse is a programming error in this file.
        self = try! DigitalInkRecognitionModelIdentifier(languageTag: tag)
    }

    /// The shape recognition model, `zxx-Zsym-x-shapes`.
    public static let shapes = DigitalInkRecognitionModelIdentifier(wellFormed: "zxx-Zsym-x-shapes")
    /// ML Kit's emoji recognition model, `zxx-Zsye-x-emoji`: no such model ships, so the constant is
    /// unavailable until one does (`try DigitalInkRecognitionModelIdentifier(languageTag:
    /// "zxx-Zsye-x-emoji")` still parses the tag, and a repository that has such a model serves it).
    @available(*, unavailable, message: "no emoji model ships yet: recognizing with it fails with modelNotFound")
    public static var emoji: DigitalInkRecognitionModelIdentifier { DigitalInkRecognitionModelIdentifier(wellFormed: "zxx-Zsye-x-emoji") }
    /// ML Kit's AutoDraw (sketch) recognition model, `zxx-Zsym-x-autodraw`: unavailable until such a
    /// model ships (as the emoji constant).
    @available(*, unavailable, message: "no AutoDraw model ships yet: recognizing with it fails with modelNotFound")
    public static var autodraw: DigitalInkRecognitionModelIdentifier { DigitalInkRecognitionModelIdentifier(wellFormed: "zxx-Zsym-x-autodraw") }

    /// True for models that recognize text; false for the `zxx-…` models (shapes, emoji, sketches).
    public var isTextModel: Bool { languageSubtag != "zxx" }

    /// The canonical language tag.
    public var description: String { languageTag }

    /// Orders identifiers by their canonical tags.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.languageTag < rhs.languageTag }

    // MARK: Codable: a single string

    /// Decodes an identifier from its language tag string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let tag = try container.decode(String.self)
        do {
            self = try DigitalInkRecognitionModelIdentifier(languageTag: tag)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the identifier as its canonical language tag string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(languageTag)
    }

    // MARK: Finding models

    /// The identifier of the model among those the app bundles (``ModelRepository/embedded``) that
    /// best serves `languageTag`, or nil when no model fits (or the app bundles none).
    ///
    /// Matching is best-effort: an exact identifier or alias wins; otherwise a model of the same
    /// language (and the same script, when the tag names one) is chosen, preferring the same
    /// region and then the language's default model. `en-GB` and `en` find `en-US` when there is
    /// no British model, and `fr-CA` finds `fr` when there is no Canadian one. Private-use tags
    /// (`zxx-Zsym-x-shapes`) match only exactly. Obsolete language codes (`iw`, `in`, `ji`, `jw`,
    /// `mo`, `tl`) and the individual languages of macrolanguages (`cmn` → `zh`, `arb` → `ar`,
    /// `zsm` → `ms`, `nob` and `no` → `nb`, …) match the models of the language they belong to.
    /// A tag's implicit script counts: `zh-TW`, `zh-HK` and `zh-MO` are Traditional (`Hant`),
    /// `zh`, `zh-CN` and `zh-SG` Simplified (`Hans`), `sr` Cyrillic; `sr-Latn` asks for Latin. A
    /// model's aliases match as its identifier does: `sr-Latn-RS` finds the model aliased `sr-Latn`.
    /// A region that contains others matches them: `es-419` prefers a Latin-American Spanish
    /// model (`es-MX`) to `es-ES`.
    ///
    /// For a remote repository use ``ModelManager/modelIdentifier(forLanguageTag:)``.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` when `languageTag` is
    ///   not a well-formed tag, ``DigitalInkError/manifestMalformed(source:reason:)`` when the
    ///   embedded manifest exists but cannot be read.
    public static func from(languageTag: String) throws(DigitalInkError) -> DigitalInkRecognitionModelIdentifier? {
        let requested = try DigitalInkRecognitionModelIdentifier(languageTag: languageTag)
        guard let manifest = try ModelRepository.embedded.localManifestIfPresent() else { return nil }
        return bestMatch(for: requested, in: manifest)
    }

    /// The identifier of the model in `manifest` that best serves `languageTag`, or nil when no
    /// model fits. Matching works as in ``from(languageTag:)``.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` when `languageTag` is
    ///   not a well-formed tag.
    public static func from(
        languageTag: String, in manifest: ModelManifest
    ) throws(DigitalInkError) -> DigitalInkRecognitionModelIdentifier? {
        bestMatch(for: try DigitalInkRecognitionModelIdentifier(languageTag: languageTag), in: manifest)
    }

    /// The identifiers of every model the app bundles (``ModelRepository/embedded``);
    /// empty when it has no manifest or the manifest cannot be read.
    public static func allModelIdentifiers() -> Set<DigitalInkRecognitionModelIdentifier> {
        guard let manifest = try? ModelRepository.embedded.localManifestIfPresent() else { return [] }
        return Set(manifest.models.map(\.identifier))
    }

    /// Obsolete ISO 639 codes still sent by some systems, and individual languages of
    /// macrolanguages (ISO 639-3), mapped to the code the models use.
    private static let legacyLanguages = [
        "iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "tl": "fil",
        "cmn": "zh", "arb": "ar", "zsm": "ms", "nob": "nb", "no": "nb", "swh": "sw", "pes": "fa",
        "ekk": "et", "lvs": "lv", "khk": "mn", "uzn": "uz", "azj": "az", "plt": "mg", "gug": "gn",
        "ydd": "yi", "npi": "ne", "ory": "or", "pbu": "ps", "prs": "fa", "quz": "qu",
    ]

    private var matchingLanguage: String { Self.legacyLanguages[languageSubtag] ?? languageSubtag }

    /// The script a tag implies when it names none (CLDR's likely subtags, for the languages
    /// written in more than one script): nil where the script does not matter for matching.
    /// Chinese always has one, from the region when the tag names no script: `Hant` for `TW`, `HK`
    /// and `MO`, `Hans` otherwise (`zh`, `zh-CN`, `zh-SG`), so that a Traditional Chinese tag never
    /// falls back to a Simplified model, nor the reverse.
    var impliedScript: String? {
        if let scriptSubtag { return scriptSubtag }
        switch (matchingLanguage, regionSubtag) {
        case ("zh", "TW"?), ("zh", "HK"?), ("zh", "MO"?): return "Hant"
        case ("zh", _): return "Hans"
        case ("sr", "ME"?): return "Latn"
        case ("sr", _): return "Cyrl"
        case ("uz", "AF"?): return "Arab"
        case ("uz", _): return "Latn"
        case ("az", "IR"?): return "Arab"
        case ("az", _): return "Latn"
        case ("pa", "PK"?): return "Arab"
        case ("pa", _): return "Guru"
        case ("ms", _), ("bs", _), ("hr", _), ("sh", _): return "Latn"
        default: return nil
        }
    }

    /// UN M.49 macro-regions and the countries they contain, for matching `es-419` and the like.
    private static let regionContainment: [String: Set<String>] = [
        "419": ["AR", "BO", "BR", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR",
                "PY", "SV", "UY", "VE", "BZ", "HT", "JM", "TT", "BS", "BB", "GY", "SR"],
        "150": ["AD", "AT", "BE", "BG", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR",
                "HU", "IE", "IS", "IT", "LI", "LT", "LU", "LV", "MC", "MT", "NL", "NO", "PL", "PT", "RO", "SE",
                "SI", "SK", "SM", "VA", "AL", "BA", "BY", "MD", "ME", "MK", "RS", "RU", "UA"],
        "021": ["US", "CA", "MX", "BM", "GL", "PM"],
        "001": [],  // the world: contains every region
    ]

    /// The best model for `requested` among the models of `manifest`.
    static func bestMatch(
        for requested: DigitalInkRecognitionModelIdentifier, in manifest: ModelManifest
    ) -> DigitalInkRecognitionModelIdentifier? {
        let normalizedRequest = requested.withCurrentLanguage()
        // 1. Exact identifier or alias.
        for model in manifest.models {
            let names = [model.identifier] + model.aliases
            if names.contains(where: { $0.withCurrentLanguage() == normalizedRequest }) {
                return model.identifier
            }
        }
        // 2. Same language, compatible script, preferring script, region and the language's default
        //    (a model named, or aliased, by the bare language). A model's aliases count as its names here
        //    too: `sr-Latn-RS` finds the model aliased `sr-Latn`.
        var best: (score: Int, identifier: DigitalInkRecognitionModelIdentifier)? = nil
        for model in manifest.models {
            let scores = ([model.identifier] + model.aliases).compactMap { $0.matchScore(against: requested) }
            guard var score = scores.max() else { continue }
            if ([model.identifier] + model.aliases).contains(where: \.isBareLanguage) { score += 1 }
            if best == nil || score > best!.score || (score == best!.score && model.identifier < best!.identifier) {
                best = (score, model.identifier)
            }
        }
        return best?.identifier
    }

    /// This identifier with an obsolete language code replaced by the current one.
    private func withCurrentLanguage() -> DigitalInkRecognitionModelIdentifier {
        guard let current = Self.legacyLanguages[languageSubtag] else { return self }
        let rest = languageTag.dropFirst(languageSubtag.count)
        return (try? DigitalInkRecognitionModelIdentifier(languageTag: current + rest)) ?? self
    }

    /// How well this (a model's name) serves `requested`; nil when it cannot serve it at all.
    private func matchScore(against requested: DigitalInkRecognitionModelIdentifier) -> Int? {
        guard matchingLanguage == requested.matchingLanguage,
            privateUseSubtag == requested.privateUseSubtag
        else { return nil }
        var score = 0
        if let wanted = requested.impliedScript, let script = impliedScript {
            guard wanted == script else { return nil }
            score += 8
        }
        if let wanted = requested.regionSubtag, let region = regionSubtag {
            if wanted == region {
                score += 4
            } else if wanted == "001" || Self.regionContainment[wanted]?.contains(region) == true {
                score += 2
            }
        }
        return score
    }

    /// True for a tag that is only a language: such a name marks the language's default model.
    private var isBareLanguage: Bool { languageTag == languageSubtag }
}
