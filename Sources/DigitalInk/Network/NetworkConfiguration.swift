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
    /// Input frames per output frame: 2 with the time reduction (`reduceAfter` > 0), else 1.
    public var timeReduction: Int { reduceAfter > 0 ? 2 : 1 }
    /// What the network's last layer computes, as `config.json` names it in `head`.
    public enum Head: String, Sendable, Hashable, Codable {
        /// Per-frame log-probabilities over the classes (text models, decoded by CTC).
        case ctc
        /// One row of class log-probabilities from the mean over time (classifiers such as shapes).
        case classifier
    }

    /// The head; absent means ``Head/ctc``. An unknown name is rejected when `config.json` is read.
    public var head: Head?

    /// How the weights are stored and multiplied, as `config.json` names it in `precision`.
    public enum Precision: String, Sendable, Hashable, Codable {
        /// Float32 (recurrent weights may be stored as F16 values that are exact in 16 bits).
        case float32
        /// 8-bit integer weights with a float scale per output row for the recurrent matrices, the
        /// projections of layers 2… and the head, the activations quantized per frame; integer
        /// products (`Training/inkrec_training/quantize.py` is the reference).
        case int8
    }

    /// The precision; absent means ``Precision/float32``. An unknown name is rejected when
    /// `config.json` is read.
    public var precision: Precision?

    public init(weights: String, inputDim: Int, hidden: Int, layers: Int, numClasses: Int, reduceAfter: Int, head: Head? = nil,
                precision: Precision? = nil) {
        self.weights = weights
        self.inputDim = inputDim
        self.hidden = hidden
        self.layers = layers
        self.numClasses = numClasses
        self.reduceAfter = reduceAfter
        self.head = head
        self.precision = precision
    }
}
