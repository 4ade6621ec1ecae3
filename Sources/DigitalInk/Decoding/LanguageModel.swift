/// A character language model used as the decoder's prior, with an explicit state.
///
/// The decoder never looks inside a state: it asks for the start state given a pre-context, and for
/// the log-probability and next state of one more symbol. Symbols are the model's class indices
/// (1...characters.count); 0 is never passed.
@_spi(Engine) public protocol LanguageModel: Sendable {
    associatedtype State: Hashable & Sendable

    /// The state after reading `preContext` (symbol ids, oldest first) from the start of a text.
    func startState(preContext: [Int]) -> State
    /// Natural-log probability of `symbol` in `state`, and the state after it.
    func score(_ symbol: Int, after state: State) -> (logProbability: Float, next: State)
}
