/// The architecture of a recognizer network, as written in a model's `config.json` under `network`.
@_spi(Engine) public struct NetworkConfiguration: Sendable, Hashable, Codable {
    /// Path of the safetensors weights, relative to `config.json`.
    public var weights: String
    /// Features per input frame.
    public var inputDim: Int
    /// LSTM units per direction.
    public var hidden: Int
    /// Number of bidirectional LSTM layers.
    public var layers: Int
    /// Output classes (characters plus the CTC blank, or shape classes).
    public var numClasses: Int
    /// After this (1-based) layer, consecutive frame pairs are stacked (time reduction by 2); 0 for none.
    public var reduceAfter: Int
    /// `"ctc"` for text models (per-frame log-probabilities) or `"classifier"` (mean-pooled logits).
    public var head: String?

    public init(weights: String, inputDim: Int, hidden: Int, layers: Int, numClasses: Int, reduceAfter: Int, head: String? = nil) {
        self.weights = weights
        self.inputDim = inputDim
        self.hidden = hidden
        self.layers = layers
        self.numClasses = numClasses
        self.reduceAfter = reduceAfter
        self.head = head
    }
}
