/// A character language model used as the decoder's prior, with an explicit state.
///
/// The decoder never looks inside a state: it asks for the start state given a pre-context, and for
/// the log-probability and next state of one more symbol. Symbols are the model's class indices
/// (1...characters.count); 0 is never passed.
///
/// A model may also say what every symbol's lookup in a state shares (``Shared``: a backoff model's
/// weights along the state's contexts), so that the decoder, which scores several symbols after one
/// prefix, computes it once per prefix. Models without such a part get the default (`Void`).
@_spi(Engine) public protocol LanguageModel: Sendable {
    associatedtype State: Hashable & Sendable
    /// What the lookups of all symbols in one state share (`Void` by default).
    associatedtype Shared = Void

    /// The state after reading `preContext` (symbol ids, oldest first) from the start of a text.
    func startState(preContext: [Int]) -> State
    /// Natural-log probability of `symbol` in `state`, and the state after it.
    func score(_ symbol: Int, after state: State) -> (logProbability: Float, next: State)
    /// The part of every lookup in `state` that does not depend on the symbol.
    func shared(in state: State) -> Shared
    /// The same as ``score(_:after:)``, bit for bit, with `shared` from ``shared(in:)`` of `state`.
    func score(_ symbol: Int, after state: State, shared: Shared) -> (logProbability: Float, next: State)
}

extension LanguageModel where Shared == Void {
    public func shared(in state: State) {}
    public func score(_ symbol: Int, after state: State, shared: Void) -> (logProbability: Float, next: State) {
        score(symbol, after: state)
    }
}
