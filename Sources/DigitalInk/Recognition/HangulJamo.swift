/// Unicode's arithmetic between precomposed Hangul syllables (U+AC00–U+D7A3) and the conjoining jamo
/// they are made of: initials U+1100–U+1112, vowels U+1161–U+1175, finals U+11A8–U+11C2. What a model
/// whose labels are jamo (`"textForm": "hangul-jamo"` in `config.json`) needs to read text as its
/// symbols and to write its symbols as text. Internal.
///
/// A syllable's index `S − 0xAC00` is `(L · 21 + V) · 28 + T`, with `L`, `V` and `T` the initial's,
/// vowel's and final's offsets (`T` 0 for none). Everything works on `unicodeScalars`: a run of
/// conjoining jamo initial-vowel(-final) is one `Character` (a grapheme cluster that compares equal
/// to the precomposed syllable), so a table keyed by `Character` cannot see its jamo.
enum HangulJamo {
    static let syllableBase: UInt32 = 0xAC00
    static let initialBase: UInt32 = 0x1100
    static let vowelBase: UInt32 = 0x1161
    /// One below the first final: a final's offset `T` is `scalar − finalBase` (1...27).
    static let finalBase: UInt32 = 0x11A7
    static let initialCount: UInt32 = 19
    static let vowelCount: UInt32 = 21
    /// Finals plus "none".
    static let finalCount: UInt32 = 28
    /// Syllables per initial: 21 · 28.
    static let syllablesPerInitial: UInt32 = vowelCount * finalCount
    /// 11,172.
    static let syllableCount: UInt32 = initialCount * syllablesPerInitial

    /// Whether `s` is a precomposed syllable, U+AC00–U+D7A3.
    static func isSyllable(_ s: Unicode.Scalar) -> Bool { s.value &- syllableBase < syllableCount }
    /// Whether `s` is a modern initial consonant, U+1100–U+1112.
    static func isInitial(_ s: Unicode.Scalar) -> Bool { s.value &- initialBase < initialCount }
    /// Whether `s` is a modern vowel, U+1161–U+1175.
    static func isVowel(_ s: Unicode.Scalar) -> Bool { s.value &- vowelBase < vowelCount }
    /// Whether `s` is a modern final consonant, U+11A8–U+11C2.
    static func isFinal(_ s: Unicode.Scalar) -> Bool { s.value &- (finalBase + 1) < finalCount - 1 }
    /// Whether `s` is a conjoining jamo of the Hangul Jamo block (U+1100–U+11FF), modern or not.
    static func isConjoiningJamo(_ s: Unicode.Scalar) -> Bool { (0x1100...0x11FF).contains(s.value) }
    /// Whether `s` is Hangul that a jamo model spells as jamo: a precomposed syllable or any conjoining
    /// jamo (``isConjoiningJamo(_:)``).
    static func isHangul(_ s: Unicode.Scalar) -> Bool { isSyllable(s) || isConjoiningJamo(s) }

    /// The 2 or 3 conjoining jamo of a precomposed syllable (initial, vowel, final if any); nil for any
    /// other scalar.
    static func jamo(of syllable: Unicode.Scalar) -> [Unicode.Scalar]? {
        guard isSyllable(syllable) else { return nil }
        let index = syllable.value - syllableBase
        let l = Unicode.Scalar(initialBase + index / syllablesPerInitial)!
        let v = Unicode.Scalar(vowelBase + (index % syllablesPerInitial) / finalCount)!
        let t = index % finalCount
        return t == 0 ? [l, v] : [l, v, Unicode.Scalar(finalBase + t)!]
    }

    /// `text` with every precomposed syllable replaced by its conjoining jamo (`"한"` → `"한"`, U+1112
    /// U+1161 U+11AB); every other scalar as it is (no other normalization). `text` itself where it
    /// holds no syllable.
    static func decomposed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isSyllable) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if let jamo = jamo(of: s) { out.append(contentsOf: jamo) } else { out.append(s) }
        }
        return String(out)
    }

    /// `text` with every run of conjoining jamo initial + vowel (+ final) replaced by its precomposed
    /// syllable, and a final after a syllable without one joined to it, as NFC composes them; jamo that
    /// form no syllable (a lone initial, a vowel without an initial, a final after no vowel) and every
    /// other scalar as they are. `text` itself where it holds no conjoining jamo.
    static func composed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isConjoiningJamo) else { return text }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.unicodeScalars.count)
        for s in text.unicodeScalars {
            if let last = out.last {
                if isInitial(last), isVowel(s) {
                    let l = last.value - initialBase, v = s.value - vowelBase
                    out[out.count - 1] = Unicode.Scalar(syllableBase + l * syllablesPerInitial + v * finalCount)!
                    continue
                }
                if isFinal(s), isSyllable(last), (last.value - syllableBase) % finalCount == 0 {
                    out[out.count - 1] = Unicode.Scalar(last.value + (s.value - finalBase))!
                    continue
                }
            }
            out.append(s)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: out)
        return String(view)
    }

    /// `text` as a jamo model's labels spell it, one label's text per element: each `Character` that
    /// holds Hangul (``isHangul(_:)``) becomes the scalars of its ``decomposed(_:)`` form, one
    /// `Character` each (a syllable gives 2 or 3); every other `Character` stays one element, as a
    /// model whose labels are characters reads it.
    static func labelUnits(_ text: some StringProtocol) -> [Character] {
        var units: [Character] = []
        units.reserveCapacity(text.count)
        for ch in text {
            if ch.unicodeScalars.contains(where: isHangul) {
                for s in decomposed(String(ch)).unicodeScalars { units.append(Character(s)) }
            } else {
                units.append(ch)
            }
        }
        return units
    }
}
