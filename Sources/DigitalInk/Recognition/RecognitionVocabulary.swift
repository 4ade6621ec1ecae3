/// Words or phrases a text recognizer should prefer (names, product codes), or the only texts it may
/// return (a fixed list of commands).
///
/// The vocabulary is applied inside the beam search, as a trie walked with every prefix, not by
/// filtering a list of candidates:
///
/// - **Boost** (the default): while a word of the text spells the beginning of an entry, every
///   character matched adds ``weight`` to the prefix's score, so that the search keeps it; when the
///   word ends (a space, a punctuation mark or the end of the text) on a complete entry the bonus
///   stays, otherwise it is taken back. Matching starts at the start of the text or after a space
///   (an opening bracket or quote before a word is skipped), and is exact: case and accents count.
///   Phrases are matched through their spaces.
/// - **Strict** (``isStrict``): every candidate is exactly one entry (after the space that may start
///   a text following a pre-context). Every character of the entries is tried in every frame, so an
///   ink unlike all of them still gets the closest entries as candidates.
///
/// ```swift
/// var options = DigitalInkRecognizerOptions(model: model)
/// options.vocabulary = try RecognitionVocabulary(["Zurich", "Zug", "Basel"], weight: 2)
/// options.vocabulary = try RecognitionVocabulary(["open", "close", "save as"], strict: true)
/// ```
///
/// The trie is built once, when the vocabulary is made: O(total characters). Ignored by classifiers
/// (shapes).
///
/// A model whose labels are Hangul jamo (`"textForm": "hangul-jamo"`) walks the entries' syllables as
/// their jamo: a syllable matched counts as its 2 or 3 jamo for the weight. A vocabulary with Hangul
/// entries builds that second trie too.
public struct RecognitionVocabulary: Sendable, Hashable {
    /// The most entries a vocabulary may hold: 1,000,000.
    public static let maxEntries = 1_000_000
    /// The longest entry: 256 characters.
    public static let maxEntryLength = 256
    /// The default ``weight``: 1 per character (natural-log units), chosen on tuning words of
    /// held-out writers with an open vocabulary (half of the words in it): it lifts the words in the
    /// vocabulary most while costing the others little (see the en-US model card). A closed list
    /// (every expected word in it) reads best with a larger weight, or with ``isStrict``.
    public static let defaultWeight: Float = 1

    /// The entries, in the order given, without duplicates.
    public let entries: [String]
    /// Score added per matched character of a boosted entry (natural-log units, `0...20`).
    public let weight: Float
    /// Whether only the entries may be returned.
    public let isStrict: Bool
    let trie: _VocabularyTrie
    /// The entries as a model whose labels are Hangul jamo spells them (``HangulJamo/labelUnits(_:)``):
    /// `trie` itself where no entry holds Hangul.
    let jamoTrie: _VocabularyTrie

    /// A vocabulary of `entries`.
    ///
    /// - Throws: ``DigitalInkError/invalidOption(name:reason:)`` for no entries, an empty entry, more
    ///   than ``maxEntries`` entries, an entry longer than ``maxEntryLength`` characters, or a weight
    ///   outside `0...20`.
    public init(_ entries: some Sequence<String>, weight: Float = defaultWeight, strict: Bool = false) throws(DigitalInkError) {
        var seen = Set<String>()
        var unique: [String] = []
        for entry in entries {
            guard !entry.isEmpty else { throw .invalidOption(name: "vocabulary", reason: "an entry is empty") }
            guard entry.count <= Self.maxEntryLength else {
                throw .invalidOption(name: "vocabulary",
                                     reason: "the entry \"\(entry.prefix(40))…\" is longer than \(Self.maxEntryLength) characters")
            }
            if seen.insert(entry).inserted { unique.append(entry) }
            guard unique.count <= Self.maxEntries else {
                throw .invalidOption(name: "vocabulary", reason: "more than \(Self.maxEntries) entries")
            }
        }
        guard !unique.isEmpty else { throw .invalidOption(name: "vocabulary", reason: "no entries") }
        guard weight.isFinite, (0...20).contains(weight) else {
            throw .invalidOption(name: "vocabulary.weight", reason: "\(weight) is outside 0...20")
        }
        self.entries = unique
        self.weight = weight
        self.isStrict = strict
        let trie = _VocabularyTrie(unique)
        self.trie = trie
        self.jamoTrie = unique.contains { $0.unicodeScalars.contains(where: HangulJamo.isHangul) }
            ? _VocabularyTrie(unique.lazy.map(HangulJamo.labelUnits)) : trie
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.entries == b.entries && a.weight == b.weight && a.isStrict == b.isStrict
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(weight)
        hasher.combine(isStrict)
    }

    /// The trie a model whose labels spell text as `form` walks (``ModelConfiguration/TextForm``; nil:
    /// the labels are characters).
    func trie(for form: ModelConfiguration.TextForm?) -> _VocabularyTrie {
        form == .hangulJamo ? jamoTrie : trie
    }

    /// The walk of this vocabulary over a model's classes (`labels[0]` is the blank), whose labels spell
    /// text as `form`: a jamo model walks its entries' syllables as their jamo.
    func walk(labels: [String], form: ModelConfiguration.TextForm? = nil) -> _VocabularyWalk {
        _VocabularyWalk(trie: trie(for: form), symbolCharacters: labels.enumerated().map { $0.offset == 0 ? nil : $0.element.first },
                        weight: weight, strict: isStrict)
    }
}
