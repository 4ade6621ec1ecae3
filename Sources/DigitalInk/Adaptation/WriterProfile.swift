import Foundation

/// What a recognizer learned of one writer's hand from readings the writer confirmed or corrected, kept in a
/// small file the app owns (``data()``, at most ``maxDataSize`` bytes).
///
/// A profile is made for one network (it records the SHA-256 of the weights file) and refuses to apply to
/// another. It holds a low-rank change beside every weight of the network (rank 8 beside each LSTM weight, both
/// directions of every layer, and beside the output layer, with a change to the output's bias), learned by a few
/// CTC gradient steps through the whole network (backpropagation through time) on the confirmed pairs; where that
/// change does not fit in ``maxDataSize`` (a network of thousands of classes) a change to the output layer alone.
/// It is applied once it has learned from ``minimumPairs`` pairs (20 by default) and only where its ``check`` of
/// those pairs shows a gain (`Docs/personalization.md`).
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
/// with a profile is deterministic: the same profile and ink give the same result, and runs in the same kernels
/// as without one (the change is folded into the weights once, when learning ends or the profile is first used).
public final class WriterProfile: Sendable {
    /// The largest profile ``data()`` writes or ``init(data:for:)`` reads: 256 KB.
    public static let maxDataSize = 262_144
    /// The default ``minimumPairs``: 20. (50 until profiles checked themselves: below that, as many writers got
    /// worse as better; with the check, the tuning writers' 20-word profiles made none worse by more than 2 points.)
    public static let defaultMinimumPairs = 20
    /// The most pairs a profile keeps in memory to learn from (the most recent ones).
    public static let maxKeptPairs = 200

    /// Lower-case hexadecimal SHA-256 of the weights file of the network the profile was made for.
    public let networkDigest: String
    /// Confirmed pairs needed before the profile changes any reading.
    public let minimumPairs: Int
    /// The recognizer that learning reads the pairs with (nil for a profile restored only to be applied).
    let recognizer: DigitalInkRecognizer?
    /// Adam steps per `learn` call (nil: `LearningSettings` or `NetworkLearningSettings`).
    let steps: Int?
    /// The seed of a change to every weight: its A's start and the order of its steps' pairs (nil: 41, the settings'
    /// own). How the evaluation tells a seed's luck from what the settings do.
    let seed: UInt64?
    /// Adam steps of each run's change in the check (nil: ``HeldOutCheck``'s; 0: no check, every change applies).
    let checkSteps: Int?
    /// Whether the profile was restored (``init(data:for:)``) after it had learned from ``minimumPairs`` pairs (or
    /// more): it then learns on only from ``minimumPairs`` new pairs at once (``pendingPairs``).
    let restoredPastMinimum: Bool

    /// What a profile changes.
    enum Change: Sendable, Equatable {
        /// The output layer alone (profiles of version 1, and networks too wide for the other).
        case head(HeadAdapter)
        /// Every weight (`LSTMAdapter`).
        case network(LSTMAdapter)
    }

    struct State: Sendable {
        var change: Change
        var pairsLearned: Int
        /// Bumped by every `learn`: the folded network below is for this generation of the change.
        var generation = 0
        /// The network with a `Change/network(_:)` change folded in and quantized (nil until built).
        var folded: (generation: Int, network: RecognitionNetwork)? = nil
        /// The last check of the change on kept pairs it did not learn from (``HeldOutCheck``); nil before any.
        var check: WriterProfileCheck? = nil
        /// Pairs given to a restored profile that it keeps and has not learned from yet (``pendingPairs``).
        var pending = 0
    }
    let state: LockedState<State>
    /// The examples learned from, the most recent ``maxKeptPairs``; held while a `learn` call runs, so that
    /// calls run one at a time.
    struct Kept: Sendable {
        var head: [HeadExample] = []
        var network: [LSTMAdapterTraining.Example] = []
    }
    let examples = LockedState<Kept>(Kept())

    init(networkDigest: String, minimumPairs: Int, change: Change, pairsLearned: Int, recognizer: DigitalInkRecognizer?,
         steps: Int? = nil, seed: UInt64? = nil, checkSteps: Int? = nil, check: WriterProfileCheck? = nil,
         restored: Bool = false) {
        self.restoredPastMinimum = restored && pairsLearned > 0 && pairsLearned >= minimumPairs
        self.networkDigest = networkDigest
        self.minimumPairs = minimumPairs
        self.recognizer = recognizer
        self.steps = steps
        self.seed = seed
        self.checkSteps = checkSteps
        self.state = LockedState(State(change: change, pairsLearned: pairsLearned, check: check))
    }

    /// A new, empty profile for `recognizer`'s network (which it loads if needed).
    ///
    /// - Throws: the recognizer's load errors; ``DigitalInkError/invalidOption(name:reason:)`` for a classifier
    ///   model (shapes), a `minimumPairs` below 0 or above 2³² − 1, or a network too wide for a profile of
    ///   ``maxDataSize`` bytes.
    public convenience init(for recognizer: DigitalInkRecognizer,
                            minimumPairs: Int = WriterProfile.defaultMinimumPairs) async throws(DigitalInkError) {
        try await self.init(for: recognizer, minimumPairs: minimumPairs, adapting: nil)
    }

    /// A new profile that adapts `kind` (nil: every weight where that fits in ``maxDataSize``, else the output
    /// layer) with `steps` Adam steps per `learn` call (nil: the settings measured) and, for a change to every
    /// weight, `seed` (nil: the settings' own): how the evaluation compares them, and how tests learn quickly. A
    /// `kind` that does not fit is an error.
    @_spi(Engine) public convenience init(for recognizer: DigitalInkRecognizer, minimumPairs: Int,
                                          adapting kind: _WriterProfileKind?, steps: Int? = nil,
                                          seed: UInt64? = nil, checkSteps: Int? = nil) async throws(DigitalInkError) {
        guard minimumPairs >= 0 else {
            throw .invalidOption(name: "minimumPairs", reason: "\(minimumPairs) is negative")
        }
        guard minimumPairs <= Int(UInt32.max) else {  // data() keeps it in 32 bits
            throw .invalidOption(name: "minimumPairs", reason: "\(minimumPairs) is more than \(UInt32.max)")
        }
        try Self.checkSettings(steps: steps, checkSteps: checkSteps)
        let model = try await recognizer.loadedModel()
        let shape = try Self.headShape(of: model)
        var change: Change? = nil
        if kind != .head {
            let c = model.configuration.network
            let adapter = LSTMAdapter(shapes: LSTMAdapter.shapes(of: c), classes: c.numClasses, rank: 8, seed: seed ?? 41)
            let size = WriterProfileFormat.size(of: adapter) + WriterProfileFormat.checkSize  // with its check (version 3)
            if size <= Self.maxDataSize, (c.head ?? .ctc) == .ctc {
                change = .network(adapter)
            } else if kind == .network {
                throw .invalidOption(name: "writerProfile", reason: "a change to every weight of this network takes \(size) bytes, more than \(Self.maxDataSize)")
            }
        }
        if change == nil {
            let rank = Self.rank(inputs: shape.inputs, classes: shape.classes)
            guard rank > 0 else {
                throw .invalidOption(name: "writerProfile", reason: "a network of \(shape.classes) classes does not fit in a profile of \(Self.maxDataSize) bytes")
            }
            change = .head(HeadAdapter(rank: rank, inputs: shape.inputs, classes: shape.classes))
        }
        self.init(networkDigest: try model.networkDigest(), minimumPairs: minimumPairs, change: change!,
                  pairsLearned: 0, recognizer: recognizer, steps: steps, seed: seed, checkSteps: checkSteps)
    }

    /// How many confirmed pairs the profile has learned from (over its whole life, also before it was saved).
    public var pairsLearned: Int { state.withLock { $0.pairsLearned } }

    /// Confirmed pairs a restored profile keeps but has not learned from yet. A profile restored from ``data()``
    /// keeps none of the pairs it learned before, and learning on from a few new ones alone would rewrite what it
    /// learned from many (and replace its ``check`` with one of those few): so a profile saved once it had learned
    /// from ``minimumPairs`` pairs keeps new pairs, changing nothing, until it has ``minimumPairs`` of them, then
    /// learns on from all of them at once (and checks itself on them). Like the kept pairs, pending ones are not in
    /// ``data()``: an app that wants a short session's pairs to count passes its earlier pairs again (their inks and
    /// texts are the app's) with the new ones. Always 0 for a profile that was never saved, and for one saved
    /// before it had ``minimumPairs`` pairs (it learns on at once, as it would have). (A profile keeps at most
    /// ``maxKeptPairs`` pairs: a larger ``minimumPairs`` waits for that many.)
    public var pendingPairs: Int { state.withLock { $0.pending } }

    /// Whether recognitions with this profile are changed by it: it has learned from ``minimumPairs`` pairs, and
    /// its last ``check`` (if any) showed a gain.
    public var isActive: Bool { state.withLock { Self.applies($0, minimumPairs: minimumPairs) } }

    /// What the profile's last check read: the kept pairs in five runs, each read with a change learned from
    /// the others and without any (``WriterProfileCheck``). A change to every weight runs it in each ``learn(from:threads:)``
    /// from ``minimumPairs`` pairs on, and changes no reading unless it shows a gain. Nil before the first check,
    /// for a profile of the output layer alone, and for one saved before checks (its change applies as it did).
    public var check: WriterProfileCheck? { state.withLock { $0.check } }

    static func applies(_ s: State, minimumPairs: Int) -> Bool {
        s.pairsLearned >= minimumPairs && (s.check?.showsGain ?? true)
    }

    /// What the profile adapts.
    @_spi(Engine) public var _kind: _WriterProfileKind {
        state.withLock { if case .head = $0.change { .head } else { .network } }
    }

    /// Learns from `pairs`, each an ink and the text the writer meant (a reading they kept or corrected): the
    /// pairs join the ones kept from earlier calls (the most recent ``maxKeptPairs``), and the adaptation takes
    /// 28 Adam steps of 10 pairs each on their CTC loss from where it stands (50 steps on all of them for a profile that
    /// changes the output layer alone). Once the profile has ``minimumPairs`` pairs, a change to every weight is also
    /// checked (``check``): five changes, each learned from four fifths of the kept pairs, read the fifth they left
    /// out, and the profile changes readings only where they made fewer word errors than the model alone.
    /// A profile restored after it had learned from ``minimumPairs`` pairs keeps new pairs without learning until it
    /// has ``minimumPairs`` of them (``pendingPairs``), then learns on from all of them.
    ///
    /// With `threads` above 1 (at most ``maxLearningThreads``), the profile's own change and the check's five runs
    /// learn side by side on that many threads, each with arrays of its own: the same profile, to the byte, in less
    /// time where the cores are free (two threads: about half the time for a change to every weight). The default, 1,
    /// keeps learning on one core, as a recognition is. A change to the output layer alone learns on one thread.
    ///
    /// - Throws: ``DigitalInkError/invalidOption(name:reason:)`` for a profile restored without a recognizer,
    ///   `threads` outside `1...maxLearningThreads`,
    ///   a recognizer of another network, a text with a character the model does not read or an empty text;
    ///   ``DigitalInkError/invalidInk(_:)`` for an invalid ink; `CancellationError` when cancelled before it
    ///   starts.
    /// - Complexity: one network pass per new ink, then for a change to every weight O(steps · examples per step
    ///   · frames · weights) (forward and backward through time; `Benchmarks`, stage `backprop`), for a change to
    ///   the output layer O(steps · kept frames · rank · (inputs + classes)); the check adds 20 steps (five runs of 4)
    ///   and two recognitions of each kept pair (learning from 50 words takes about twice as long; `Benchmarks`, stage
    ///   `learn`).
    public func learn(from pairs: [(Ink, String)], threads: Int = 1) async throws {
        guard (1...Self.maxLearningThreads).contains(threads) else {
            throw DigitalInkError.invalidOption(name: "threads", reason: "\(threads) is outside 1...\(Self.maxLearningThreads)")
        }
        guard let recognizer else {
            throw DigitalInkError.invalidOption(name: "writerProfile", reason: "restored without a recognizer: it can be applied but not taught (WriterProfile(data:for:))")
        }
        let model = try await loadedModel(of: recognizer)
        for (ink, _) in pairs { try ink.validate(timestamps: recognizer.options.timestampValidation) }
        try await recognizer.pool.runCancellable { () throws(DigitalInkError) in
            try self.examples.withLock { (kept: inout Kept) throws(DigitalInkError) in
                let start = self.state.withLock { $0.change }
                switch start {
                case .head(let adapter):
                    try Self.checkFits(adapter, model)
                    let fresh = try pairs.map { (ink, text) throws(DigitalInkError) in try HeadExample(ink: ink, text: text, model: model) }
                    kept.head.append(contentsOf: fresh.compactMap { $0 })
                    if kept.head.count > Self.maxKeptPairs { kept.head.removeFirst(kept.head.count - Self.maxKeptPairs) }
                    if self.waits(keeping: kept.head.count, given: pairs.count) { return }
                    var settings = LearningSettings()
                    if let steps = self.steps { settings.steps = steps }
                    let learned = HeadAdapterTraining(settings: settings).fit(adapter, to: kept.head)
                    self.state.withLock { state in
                        state.change = .head(learned)
                        state.pairsLearned += state.pending + pairs.count
                        state.pending = 0
                        state.generation += 1
                    }
                case .network(let adapter):
                    let fresh = try pairs.map { (ink, text) throws(DigitalInkError) in
                        try LSTMAdapterTraining.Example(ink: ink, text: text, model: model)
                    }
                    kept.network.append(contentsOf: fresh.compactMap { $0 })
                    if kept.network.count > Self.maxKeptPairs { kept.network.removeFirst(kept.network.count - Self.maxKeptPairs) }
                    let base = try Self.floatNetwork(of: model, fitting: adapter)
                    if self.waits(keeping: kept.network.count, given: pairs.count) { return }
                    let training = self.networkTraining()
                    let examples = kept.network, options = recognizer.options
                    // From the pairs on which the profile applies, a check on pairs each change did not learn from.
                    let check = self.pairsLearned + self.pendingPairs + pairs.count >= self.minimumPairs
                        ? self.heldOutCheck(rank: adapter.rank, base: base) : nil
                    let usable = check.flatMap { $0.check.readable(examples) }
                    // Part 0 the profile's change, folded into 8 bits; parts 1… the check's runs. With one thread
                    // they share one pool (the arrays of every fit of this call).
                    let parts = try _LearningParts.run(1 + (usable == nil ? 0 : check?.check.folds ?? 0), threads: threads,
                                                       pool: FloatBufferPool()) { i, pool throws(DigitalInkError) -> LearningPart in
                        guard i > 0, let check, let usable else {
                            let learned = training.fit(adapter, base: base, to: examples, pool: pool)
                            return .change(learned, try Self.folded(learned, into: base, model))
                        }
                        return .run(try check.check.run(i - 1, of: usable, start: check.start, base: base, training: training,
                                                        model: model, options: options, pool: pool))
                    }
                    guard case .change(let learned, let folded) = parts[0] else { preconditionFailure("part 0 is the change") }
                    let checked = usable.map { usable in
                        HeldOutCheck.check(of: usable, parts.dropFirst().map { part -> HeldOutCheck.Tally in
                            guard case .run(let tally) = part else { preconditionFailure("parts 1… are the check's runs") }
                            return tally
                        })
                    }
                    self.state.withLock { state in
                        state.change = .network(learned)
                        state.pairsLearned += state.pending + pairs.count
                        state.pending = 0
                        state.generation += 1
                        state.folded = (state.generation, folded)
                        if let checked { state.check = checked }
                    }
                }
            }
        }
    }

    /// Checks the profile again, reading through `recognizer`: the same check as ``learn(from:threads:)`` runs (``check``),
    /// on the pairs kept while the profile lives, read with `recognizer`'s decoder and language model. For an app
    /// that follows ``DigitalInkRecognizer/suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)``
    /// to another model of the network: whether the profile reads the writer better depends on the language model
    /// it is read with. Returns the new check, also kept in ``check``; nil (and ``check`` as it was) for a profile
    /// of the output layer alone, one that keeps fewer than five pairs, or a restored one waiting for new pairs
    /// (``pendingPairs``).
    ///
    /// - Throws: ``DigitalInkError/invalidOption(name:reason:)`` for a recognizer of another network; its load
    ///   errors; `CancellationError` when cancelled before it starts.
    @discardableResult
    public func recheck(through recognizer: DigitalInkRecognizer) async throws -> WriterProfileCheck? {
        let model = try await loadedModel(of: recognizer)
        return try await recognizer.pool.runCancellable { () throws(DigitalInkError) -> WriterProfileCheck? in
            try self.examples.withLock { (kept: inout Kept) throws(DigitalInkError) -> WriterProfileCheck? in
                guard case .network(let adapter) = self.state.withLock({ $0.change }),
                      self.pendingPairs == 0 else { return nil }
                let base = try Self.floatNetwork(of: model, fitting: adapter)
                guard let (check, start) = self.heldOutCheck(rank: adapter.rank, base: base),
                      let checked = try check.run(start: start, base: base, examples: kept.network,
                                                  training: self.networkTraining(), model: model,
                                                  options: recognizer.options) else { return nil }
                self.state.withLock { $0.check = checked }
                return checked
            }
        }
    }

    /// Completion-handler form of ``recheck(through:)``. The handler runs on an arbitrary thread.
    public func recheck(through recognizer: DigitalInkRecognizer,
                        completion: @escaping @Sendable (Result<WriterProfileCheck?, DigitalInkError>) -> Void) {
        DigitalInkRecognizer.complete(completion) { try await self.recheck(through: recognizer) }
    }

    /// `recognizer`'s model (loaded if needed), checked to run this profile's network.
    func loadedModel(of recognizer: DigitalInkRecognizer) async throws(DigitalInkError) -> LoadedModel {
        let model = try await recognizer.loadedModel()
        guard try model.networkDigest() == networkDigest else {
            throw .invalidOption(name: "writerProfile", reason: "made for another network (\(networkDigest.prefix(12))…), not this recognizer's")
        }
        return model
    }

    /// Whether a restored profile keeps the pairs of this `learn` call without learning (``pendingPairs``): it
    /// had learned from ``minimumPairs`` pairs when it was saved and keeps fewer than that since; if so, counts them.
    func waits(keeping kept: Int, given: Int) -> Bool {
        guard restoredPastMinimum, kept < Swift.min(minimumPairs, Self.maxKeptPairs) else { return false }
        state.withLock { $0.pending += given }
        return true
    }

    /// Refuses learning settings outside their ranges: `steps` 1...1000, `checkSteps` 0...1000 (0: no check).
    static func checkSettings(steps: Int?, checkSteps: Int?) throws(DigitalInkError) {
        if let steps, !(1...1000).contains(steps) { throw .invalidOption(name: "steps", reason: "\(steps) is outside 1...1000") }
        if let checkSteps, !(0...1000).contains(checkSteps) {
            throw .invalidOption(name: "checkSteps", reason: "\(checkSteps) is outside 0...1000")
        }
    }

    /// How this profile learns a change to every weight (the settings, with its own steps and seed).
    func networkTraining() -> LSTMAdapterTraining {
        var training = NetworkLearningSettings().training
        if let steps { training.steps = steps }
        if let seed { training.seed = seed }
        return training
    }

    /// The check (``HeldOutCheck``) of this profile's settings and the new change of `rank` its runs learn from (as
    /// the profile started: a change learned before would already have learned the pairs a run leaves out); nil
    /// where ``checkSteps`` is 0.
    func heldOutCheck(rank: Int, base: _FloatLSTMNetwork) -> (check: HeldOutCheck, start: LSTMAdapter)? {
        var check = HeldOutCheck()
        if let checkSteps { check.steps = checkSteps }
        guard check.steps > 0 else { return nil }
        return (check, LSTMAdapter(network: base, rank: rank, seed: seed ?? 41))
    }

    /// What one part of a ``learn(from:threads:)`` learned (``_LearningParts``).
    enum LearningPart: Sendable {
        /// The profile's change, and folded into the model's 8-bit network.
        case change(LSTMAdapter, RecognitionNetwork)
        /// A run of the check.
        case run(HeldOutCheck.Tally)
    }

    /// The most threads ``learn(from:threads:)`` takes: 64.
    public static let maxLearningThreads = 64

    /// Completion-handler form of ``learn(from:threads:)``. The handler runs on an arbitrary thread.
    public func learn(from pairs: [(Ink, String)], threads: Int = 1,
                      completion: @escaping @Sendable (Result<Void, DigitalInkError>) -> Void) {
        DigitalInkRecognizer.complete(completion) { try await self.learn(from: pairs, threads: threads) }
    }

    /// The adaptation to apply to `model`'s output now: nil while the profile is not ``isActive``; throws when
    /// the profile was made for another network (or its change does not fit the network's shapes).
    func adaptation(for model: LoadedModel) throws(DigitalInkError) -> WriterAdaptation? {
        guard model.configuration.modelKind == .text else { return nil }
        guard try model.networkDigest() == networkDigest else {
            throw .invalidOption(name: "writerProfile", reason: "made for another network (\(networkDigest.prefix(12))…), not this model's \(model.configuration.network.weights)")
        }
        let s = state.withLock { ($0.change, Self.applies($0, minimumPairs: minimumPairs), $0.generation, $0.folded) }
        guard s.1 else { return nil }
        switch s.0 {
        case .head(let adapter):
            try Self.checkFits(adapter, model)
            return .head(adapter)
        case .network(let adapter):
            if let folded = s.3, folded.generation == s.2 { return .network(folded.network) }
            // A restored profile: fold the change into the weights once.
            let network = try Self.folded(adapter, into: try Self.floatNetwork(of: model, fitting: adapter), model)
            state.withLock { if $0.generation == s.2 { $0.folded = (s.2, network) } }
            return .network(network)
        }
    }

    /// The head's input width and classes of a text model.
    static func headShape(of model: LoadedModel) throws(DigitalInkError) -> (inputs: Int, classes: Int) {
        guard model.configuration.modelKind == .text else {
            throw .invalidOption(name: "writerProfile", reason: "the model is a classifier (shapes); profiles adapt text models")
        }
        return (model.network.headInputs, model.configuration.network.numClasses)
    }

    /// `model`'s network as float matrices (what a change to every weight is learned on and folded into).
    static func floatNetwork(of model: LoadedModel) throws(DigitalInkError) -> _FloatLSTMNetwork {
        try _FloatLSTMNetwork(configuration: model.configuration.network, weightsURL: model.weightsURL)
    }

    /// ``floatNetwork(of:)``, checked to have the shapes `adapter` changes (a restored file may claim others).
    static func floatNetwork(of model: LoadedModel, fitting adapter: LSTMAdapter) throws(DigitalInkError) -> _FloatLSTMNetwork {
        let base = try floatNetwork(of: model)
        guard adapter.fits(base) else {
            throw .invalidOption(name: "writerProfile", reason: "its change (\(adapter.pairs.count) weights) does not fit this network's shapes")
        }
        return base
    }

    /// `adapter` folded into `base` and quantized as the exporter does, to run in `model`'s kernels.
    static func folded(_ adapter: LSTMAdapter, into base: _FloatLSTMNetwork, _ model: LoadedModel) throws(DigitalInkError) -> RecognitionNetwork {
        try adapter.applied(to: base).engineNetwork(configuration: model.configuration.network, compute: model.compute)
    }

    /// Throws unless a change to the output layer has `model`'s head input width and classes.
    static func checkFits(_ adapter: HeadAdapter, _ model: LoadedModel) throws(DigitalInkError) {
        guard adapter.inputs == model.network.headInputs, adapter.classes == model.configuration.network.numClasses else {
            throw .invalidOption(name: "writerProfile", reason: "its change to the output layer (\(adapter.inputs) inputs, \(adapter.classes) classes) does not fit this network's")
        }
    }

    /// The largest rank, at most 8, whose profile fits in ``maxDataSize`` (0 when none does).
    static func rank(inputs: Int, classes: Int) -> Int {
        let floats = (maxDataSize - WriterProfileFormat.headerSize) / 4 - classes
        return max(0, min(8, floats / (inputs + classes)))
    }
}

/// What a profile adapts (`WriterProfile.init(for:minimumPairs:adapting:steps:)`).
@_spi(Engine) public enum _WriterProfileKind: String, Sendable, CaseIterable {
    /// A rank-8 change beside every weight (`LSTMAdapter`).
    case network
    /// A rank-8 change beside the output layer and its bias (`HeadAdapter`).
    case head
}

/// A profile's change as a recognition applies it: a network of its own (every weight changed, folded and quantized)
/// or a change to the shared network's output. Internal.
enum WriterAdaptation: Sendable {
    case head(HeadAdapter)
    case network(RecognitionNetwork)

    var head: HeadAdapter? { if case .head(let h) = self { h } else { nil } }
    var network: RecognitionNetwork? { if case .network(let n) = self { n } else { nil } }
}

/// How a ``WriterProfile`` learns a change to the output layer: chosen on six held-out UNIPEN writers that no
/// reported figure uses (`Docs/personalization.md`).
struct LearningSettings: Sendable {
    /// Adam steps per `learn` call.
    var steps = 50
    /// Adam's step size.
    var learningRate = 0.03
    /// λ of the penalty λ (‖B A‖² + ‖d‖²).
    var penalty = 0.3
}

/// How a ``WriterProfile`` learns a change to every weight: the PyTorch prototype's settings (`loraall`), chosen on
/// the six tuning writers (`Docs/personalization.md`); 32 steps since 2026-12-06 (40 before: as many words on the
/// tuning writers within the seeds' spread, in a fifth less time), 28 since 2026-12-07 (as many words again, and
/// the longest words learned under 2 s on a slower VM, "28 steps instead of 32").
struct NetworkLearningSettings: Sendable {
    /// Adam steps per `learn` call: 28, also ``LSTMAdapterTraining``'s default (written once, here).
    static let steps = 28
    var training = LSTMAdapterTraining(steps: Self.steps, learningRate: 0.01, penalty: 0.1, minibatch: 10)
}
