import Foundation

/// What a recognizer learned of one writer's hand from readings the writer confirmed or corrected, kept in a
/// small file the app owns (``data()``, at most ``maxDataSize`` bytes).
///
/// A profile is made for one network (it records the SHA-256 of the weights file) and refuses to apply to
/// another. It holds a low-rank change to the network's output layer (rank 8 for the Latin networks), learned by a few CTC
/// gradient steps on the confirmed pairs with the rest of the network frozen, and is applied once it has
/// learned from ``minimumPairs`` pairs: measured on held-out UNIPEN writers, fewer made as many writers worse as
/// better (`Docs/personalization.md`).
///
/// ```swift
/// let profile = try await WriterProfile(for: recognizer)
/// try await profile.learn(from: [(ink, "hello")])          // the writer's confirmed readings
/// let mine = recognizer.withOptions { $0.writerProfile = profile }
/// try profile.data().write(to: url)                        // and later: WriterProfile(data:for:)
/// ```
///
/// A reference type, safe to share: recognitions take a snapshot of the adaptation when they start (a page, one
/// for all its lines), learning runs one call at a time and replaces the adaptation when it ends. Recognition
/// with a profile is deterministic: the same profile and ink give the same result.
public final class WriterProfile: Sendable {
    /// The largest profile ``data()`` writes or ``init(data:for:)`` reads: 256 KB.
    public static let maxDataSize = 262_144
    /// The default ``minimumPairs``: 50.
    public static let defaultMinimumPairs = 50
    /// The most pairs a profile keeps in memory to learn from (the most recent ones).
    public static let maxKeptPairs = 200

    /// Lower-case hexadecimal SHA-256 of the weights file of the network the profile was made for.
    public let networkDigest: String
    /// Confirmed pairs needed before the profile changes any reading.
    public let minimumPairs: Int
    /// The recognizer that learning reads the pairs with (nil for a profile restored only to be applied).
    let recognizer: DigitalInkRecognizer?

    struct State: Sendable {
        var adapter: HeadAdapter
        var pairsLearned: Int
    }
    let state: LockedState<State>
    /// The examples learned from (head inputs, log-probabilities, labels), the most recent ``maxKeptPairs``;
    /// held while a `learn` call runs, so that calls run one at a time.
    let examples = LockedState<[HeadExample]>([])

    init(networkDigest: String, minimumPairs: Int, adapter: HeadAdapter, pairsLearned: Int,
         recognizer: DigitalInkRecognizer?) {
        self.networkDigest = networkDigest
        self.minimumPairs = minimumPairs
        self.recognizer = recognizer
        self.state = LockedState(State(adapter: adapter, pairsLearned: pairsLearned))
    }

    /// A new, empty profile for `recognizer`'s network (which it loads if needed).
    ///
    /// - Throws: the recognizer's load errors; ``DigitalInkError/invalidOption(name:reason:)`` for a classifier
    ///   model (shapes), a `minimumPairs` below 0, or a network too wide for a profile of ``maxDataSize`` bytes.
    public convenience init(for recognizer: DigitalInkRecognizer,
                            minimumPairs: Int = WriterProfile.defaultMinimumPairs) async throws(DigitalInkError) {
        guard minimumPairs >= 0 else {
            throw .invalidOption(name: "minimumPairs", reason: "\(minimumPairs) is negative")
        }
        let model = try await recognizer.loadedModel()
        let shape = try Self.headShape(of: model)
        let rank = Self.rank(inputs: shape.inputs, classes: shape.classes)
        guard rank > 0 else {
            throw .invalidOption(name: "writerProfile", reason: "a network of \(shape.classes) classes does not fit in a profile of \(Self.maxDataSize) bytes")
        }
        self.init(networkDigest: try model.networkDigest(), minimumPairs: minimumPairs,
                  adapter: HeadAdapter(rank: rank, inputs: shape.inputs, classes: shape.classes),
                  pairsLearned: 0, recognizer: recognizer)
    }

    /// How many confirmed pairs the profile has learned from (over its whole life, also before it was saved).
    public var pairsLearned: Int { state.withLock { $0.pairsLearned } }

    /// Whether recognitions with this profile are changed by it (``pairsLearned`` ≥ ``minimumPairs``).
    public var isActive: Bool { pairsLearned >= minimumPairs }

    /// Learns from `pairs`, each an ink and the text the writer meant (a reading they kept or corrected): the
    /// pairs join the ones kept from earlier calls (the most recent ``maxKeptPairs``), and the adaptation takes
    /// 50 Adam steps on their CTC loss from where it stands.
    ///
    /// - Throws: ``DigitalInkError/invalidOption(name:reason:)`` for a profile restored without a recognizer,
    ///   a recognizer of another network, a text with a character the model does not read or an empty text;
    ///   ``DigitalInkError/invalidInk(_:)`` for an invalid ink; `CancellationError` when cancelled before it
    ///   starts.
    /// - Complexity: one network pass per new ink, then O(steps · kept frames · rank · (inputs + classes)); 50
    ///   words take well under a second on one core (`Benchmarks`).
    public func learn(from pairs: [(Ink, String)]) async throws {
        guard let recognizer else {
            throw DigitalInkError.invalidOption(name: "writerProfile", reason: "restored without a recognizer: it can be applied but not taught (WriterProfile(data:for:))")
        }
        let model = try await recognizer.loadedModel()
        guard try model.networkDigest() == networkDigest else {
            throw DigitalInkError.invalidOption(name: "writerProfile", reason: "made for another network (\(networkDigest.prefix(12))…), not this recognizer's")
        }
        for (ink, _) in pairs { try ink.validate(timestamps: recognizer.options.timestampValidation) }
        let settings = LearningSettings()
        try await recognizer.pool.runCancellable { () throws(DigitalInkError) in
            let fresh = try pairs.map { (ink, text) throws(DigitalInkError) in try HeadExample(ink: ink, text: text, model: model) }
            try self.examples.withLock { (kept: inout [HeadExample]) throws(DigitalInkError) in
                kept.append(contentsOf: fresh.compactMap { $0 })
                if kept.count > Self.maxKeptPairs { kept.removeFirst(kept.count - Self.maxKeptPairs) }
                let start = self.state.withLock { $0.adapter }
                let learned = HeadAdapterTraining(settings: settings).fit(start, to: kept)
                self.state.withLock { state in
                    state.adapter = learned
                    state.pairsLearned += pairs.count
                }
            }
        }
    }

    /// Completion-handler form of ``learn(from:)``. The handler runs on an arbitrary thread.
    public func learn(from pairs: [(Ink, String)], completion: @escaping @Sendable (Result<Void, DigitalInkError>) -> Void) {
        DigitalInkRecognizer.complete(completion) { try await self.learn(from: pairs) }
    }

    /// The adaptation to apply to `model`'s output now: nil while the profile is not ``isActive``; throws when
    /// the profile was made for another network.
    func adapter(for model: LoadedModel) throws(DigitalInkError) -> HeadAdapter? {
        guard model.configuration.modelKind == .text else { return nil }
        guard try model.networkDigest() == networkDigest else {
            throw .invalidOption(name: "writerProfile", reason: "made for another network (\(networkDigest.prefix(12))…), not this model's \(model.configuration.network.weights)")
        }
        let s = state.withLock { $0 }
        guard s.pairsLearned >= minimumPairs, s.adapter.inputs == model.network.headInputs,
              s.adapter.classes == model.configuration.network.numClasses else { return nil }
        return s.adapter
    }

    /// The head's input width and classes of a text model.
    static func headShape(of model: LoadedModel) throws(DigitalInkError) -> (inputs: Int, classes: Int) {
        guard model.configuration.modelKind == .text else {
            throw .invalidOption(name: "writerProfile", reason: "the model is a classifier (shapes); profiles adapt text models")
        }
        return (model.network.headInputs, model.configuration.network.numClasses)
    }

    /// The largest rank, at most 8, whose profile fits in ``maxDataSize`` (0 when none does).
    static func rank(inputs: Int, classes: Int) -> Int {
        let floats = (maxDataSize - WriterProfileFormat.headerSize) / 4 - classes
        return max(0, min(8, floats / (inputs + classes)))
    }
}

/// How a ``WriterProfile`` learns: chosen on six held-out UNIPEN writers that no reported figure uses
/// (`Docs/personalization.md`).
struct LearningSettings: Sendable {
    /// Adam steps per `learn` call.
    var steps = 50
    /// Adam's step size.
    var learningRate = 0.03
    /// λ of the penalty λ (‖B A‖² + ‖d‖²).
    var penalty = 0.3
}
