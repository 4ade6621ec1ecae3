/// How a text model's classes and text correspond: the symbols (class indices) of a text, and the text of
/// a sequence of symbols. Every stage that turns text into symbols (pre- and post-context, hints,
/// alignment, a writer's pairs) or symbols into text (hypotheses) goes through it. Internal.
///
/// Most models' labels are the text's characters: a `Character` is one symbol, and symbols are written
/// as their labels joined, exactly as the stages always did. A model whose labels are Hangul jamo
/// (``ModelConfiguration/TextForm/hangulJamo``) reads a `Character` that holds Hangul as the jamo of its
/// decomposition (a syllable is 2 or 3 symbols, ``HangulJamo/labelUnits(_:)``), and its symbols are
/// written with their jamo composed into precomposed syllables (``HangulJamo/composed(_:)``).
struct LabelText: Sendable {
    /// Label of each class (blank is "").
    let classLabels: [String]
    let symbolOfCharacter: [Character: Int]
    /// How the labels spell text; nil: they are its characters.
    let form: ModelConfiguration.TextForm?

    /// The symbols that spell `ch` (one, or a syllable's jamo); nil where the model cannot write it.
    func symbols(of ch: Character) -> [Int]? {
        guard form == .hangulJamo, ch.unicodeScalars.contains(where: HangulJamo.isHangul) else {
            return symbolOfCharacter[ch].map { [$0] }
        }
        var symbols: [Int] = []
        for unit in HangulJamo.labelUnits(String(ch)) {
            guard let s = symbolOfCharacter[unit] else { return nil }
            symbols.append(s)
        }
        return symbols
    }

    /// The symbols of every character of `text` in order; nil where the model cannot write one of them.
    func symbols(of text: some StringProtocol) -> [Int]? {
        var symbols: [Int] = []
        symbols.reserveCapacity(text.count)
        for ch in text {
            guard let s = self.symbols(of: ch) else { return nil }
            symbols.append(contentsOf: s)
        }
        return symbols
    }

    /// The text that `symbols` spell: the labels joined (with a jamo model, their jamo composed).
    func text(of symbols: [Int]) -> String {
        let joined = symbols.map { classLabels[$0] }.joined()
        return form == .hangulJamo ? HangulJamo.composed(joined) : joined
    }

    /// Per class, whether `allowed` lets the model output it (the blank always): its label is one of the
    /// characters, or (a jamo model) one of the jamo that a character of the set decomposes into.
    func allowedClasses(_ allowed: Set<Character>) -> [Bool] {
        guard form == .hangulJamo else {
            return classLabels.enumerated().map { $0 == 0 || allowed.contains(Character($1)) }
        }
        var jamo = Set<Character>()
        for ch in allowed where ch.unicodeScalars.contains(where: HangulJamo.isHangul) {
            jamo.formUnion(HangulJamo.labelUnits(String(ch)))
        }
        return classLabels.enumerated().map { c, label in
            c == 0 || allowed.contains(Character(label)) || jamo.contains(Character(label))
        }
    }

    /// Whether every character of `text` is in `allowed`. The class mask (``allowedClasses(_:)``) is
    /// all a model whose labels are characters needs; a jamo model's mask allows each jamo of the
    /// set's syllables, which also spell syllables the set does not hold.
    func admits(_ text: String, allowed: Set<Character>) -> Bool {
        form == nil || text.allSatisfy(allowed.contains)
    }
}
