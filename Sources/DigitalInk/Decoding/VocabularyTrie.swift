/// The entries of a ``RecognitionVocabulary`` as a character trie, built once when the vocabulary is
/// made; the beam search walks it with every prefix (``_VocabularyWalk``). Immutable. Internal.
///
/// Node 0 is the empty entry. `children[n]` maps a character to the node after it; `isEntry[n]` is
/// true where an entry ends.
final class _VocabularyTrie: Sendable {
    let children: [[Character: Int32]]
    let isEntry: [Bool]
    /// Every character of every entry.
    let characters: Set<Character>

    /// A trie of `entries`, each a sequence of characters (a `String`, or a jamo model's label units).
    init<Entries: Sequence>(_ entries: Entries) where Entries.Element: Sequence<Character> {
        var children: [[Character: Int32]] = [[:]]
        var isEntry = [false]
        var characters = Set<Character>()
        for entry in entries {
            var node = 0
            for ch in entry {
                characters.insert(ch)
                if let next = children[node][ch] {
                    node = Int(next)
                } else {
                    children.append([:])
                    isEntry.append(false)
                    children[node][ch] = Int32(children.count - 1)
                    node = children.count - 1
                }
            }
            isEntry[node] = true
        }
        self.children = children
        self.isEntry = isEntry
        self.characters = characters
    }
}

/// Where a beam-search prefix stands in the vocabulary: the trie node of the entry being matched
/// (`node`, or -1 when the current word matches no entry), the bonus of the entries completed before
/// it (`committed`), and its characters matched so far (`partial`). Internal.
struct _VocabularyState: Sendable, Hashable {
    var node: Int32 = 0
    var committed: Float = 0
    var partial: Int32 = 0
}

/// The vocabulary as the beam search applies it to one model's symbols. Internal engine type.
///
/// - **Boost** (`strict == false`): a match starts at the start of the text or after a space (an
///   opening bracket or quote before it is skipped). Every character matched so far adds `weight` to the
///   prefix's rank; when the word ends (a space, a punctuation mark, or the end of the text) on a
///   complete entry, the bonus stays; otherwise it is taken back. Entries with spaces (phrases) are
///   matched through their spaces.
/// - **Strict**: the whole text (after a leading space) must be one entry: a symbol that leaves the
///   trie is never tried, and at the end only complete entries are returned.
@_spi(Engine) public struct _VocabularyWalk: Sendable {
    let trie: _VocabularyTrie
    /// The character of each class (nil for blank).
    let symbolCharacters: [Character?]
    let weight: Float
    let strict: Bool

    /// The rank bonus of a state.
    @inline(__always)
    func bonus(_ s: _VocabularyState) -> Float { s.committed + weight * Float(s.partial) }

    /// Whether `s` stands at the end of a complete entry.
    func isComplete(_ s: _VocabularyState) -> Bool { s.node > 0 && trie.isEntry[Int(s.node)] }

    /// The state after `symbol`, or nil when strict mode forbids it.
    func next(_ s: _VocabularyState, _ symbol: Int) -> _VocabularyState? {
        guard let ch = symbolCharacters[symbol] else { return strict ? nil : s }
        if s.node >= 0, let child = trie.children[Int(s.node)][ch] {
            return _VocabularyState(node: child, committed: s.committed, partial: s.partial + 1)
        }
        if strict { return nil }
        let complete = isComplete(s)
        let committed = complete ? bonus(s) : s.committed
        if ch == " " { return _VocabularyState(node: 0, committed: committed, partial: 0) }
        if s.node == 0, !(ch.isLetter || ch.isNumber) { return s }  // "(" or a quote before a word
        if complete, !(ch.isLetter || ch.isNumber) {  // "word," : the entry is complete
            return _VocabularyState(node: -1, committed: committed, partial: 0)
        }
        return _VocabularyState(node: -1, committed: s.committed, partial: 0)  // no entry: bonus taken back
    }

    /// The bonus a prefix keeps when the text ends in state `s` (nil: not allowed in strict mode).
    func final(_ s: _VocabularyState) -> Float? {
        if isComplete(s) { return bonus(s) }
        return strict ? nil : s.committed
    }
}
