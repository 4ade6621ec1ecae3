/// What a model does with its network's output, decided once when its `config.json` is read.
///
/// `config.json` names it in `kind`; ``ModelConfiguration/load(from:)`` rejects a name it does not
/// know. The kind chooses the decoding stage (``CandidateDecoding``) and what the configuration must
/// hold (a blank class and a CTC head for text; a classifier head for classifiers).
enum ModelKind: Sendable, Hashable, CaseIterable {
    /// Handwritten text: a CTC head, a blank class, one character per label, an optional character
    /// language model. `kind: "text"`.
    case text
    /// One class per ink (the shapes model; later emoji): a classifier head, one label per class.
    /// `kind: "shapes"`.
    case classifier

    /// The `kind` names of `config.json` and what they mean. The only place these names are read.
    static let configurationNames: [String: ModelKind] = ["text": .text, "shapes": .classifier]

    /// The kind `config.json` calls `name`, or nil for a name this engine does not know.
    init?(configurationName name: String) {
        guard let kind = Self.configurationNames[name] else { return nil }
        self = kind
    }
}
