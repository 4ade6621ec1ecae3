import Foundation

/// What a profile checks before it changes any reading (issue 41): whether a change learned as it learns reads
/// the writer's own words better that it did not learn from. The kept pairs in ``folds`` runs of their order;
/// for each run, a change learned from the other runs (``steps`` Adam steps from a new change, as the profile learns
/// otherwise) reads the run's inks as a recognition does (the network with the change, the
/// decoder and its language model), and so does the model without any change. Internal.
///
///     without = Σ_runs Σ_pairs word errors of the model's reading
///     with    = Σ_runs Σ_pairs word errors of the run's change's reading
///
/// A profile applies only where `with < without` (``WriterProfileCheck/showsGain``). A pair's word errors are the
/// edit distance between its reading and its text, in words (a word: 1 if misread, 0 if read right; a line: its
/// words substituted, left out and added); a lone letter reads right in either case (what the profile learns for it).
struct HeldOutCheck: Sendable {
    /// Runs of the kept pairs, each read by a change learned from the others.
    var folds = 5
    /// Adam steps of each run's change (the profile's own take 28): 4, chosen on the tuning writers from 2, 3, 4 and
    /// 10 (`Docs/personalization.md`); the check then costs about as much as learning itself (0.86 s of 1.78 s for
    /// the longest words measured with 32, "32 steps instead of 40").
    var steps = 4

    /// What one run of the check read: the word errors of its pairs' readings without and with its change, and the
    /// words of their texts.
    struct Tally: Sendable, Equatable {
        var without = 0
        var with = 0
        var words = 0
    }

    /// The kept pairs the check reads (those with an ink, a text and labels), in their order; nil where fewer than
    /// ``folds`` (restored pairs keep no ink).
    func readable(_ examples: [LSTMAdapterTraining.Example]) -> [LSTMAdapterTraining.Example]? {
        let usable = examples.filter { !$0.labels.isEmpty && $0.ink != nil && $0.text != nil }
        return folds >= 2 && usable.count >= folds ? usable : nil
    }

    /// Run `f` of the check on `usable` (``readable(_:)``): a change learned as `training` learns from `start` on the
    /// other runs' pairs (`base` the float network of `model`), then run `f`'s pairs read with it and without any.
    func run(_ f: Int, of usable: [LSTMAdapterTraining.Example], start: LSTMAdapter, base: _FloatLSTMNetwork,
             training: LSTMAdapterTraining, model: LoadedModel, options: DigitalInkRecognizerOptions,
             pool: FloatBufferPool) throws(DigitalInkError) -> Tally {
        var options = options
        options.writerProfile = nil
        var fold = training
        fold.steps = steps
        let range = (f * usable.count / folds)..<((f + 1) * usable.count / folds)
        let rest = Array(usable[..<range.lowerBound]) + Array(usable[range.upperBound...])
        let change = fold.fit(start, base: base, to: rest, pool: pool)
        let plain = LinePipeline(model: model, options: options)
        let adapted = LinePipeline(model: model, options: options,
                                   adaptation: .network(try WriterProfile.folded(change, into: base, model)))
        var tally = Tally()
        for e in usable[range] {
            tally.words += Self.words(of: e.text ?? "").count
            tally.without += try Self.wordErrors(plain, e)
            tally.with += try Self.wordErrors(adapted, e)
        }
        return tally
    }

    /// The check of `usable`'s pairs from the tallies of its ``folds`` runs.
    static func check(of usable: [LSTMAdapterTraining.Example], _ tallies: [Tally]) -> WriterProfileCheck {
        WriterProfileCheck(pairs: usable.count, words: tallies.reduce(0) { $0 + $1.words },
                           wordErrorsWithout: tallies.reduce(0) { $0 + $1.without },
                           wordErrorsWith: tallies.reduce(0) { $0 + $1.with })
    }

    /// The check of a change learned as `training` learns from `start` on `examples` of `model` (`base` its float
    /// network), its runs one after another on the calling thread (``WriterProfile/learn(from:threads:)`` runs them
    /// as parts of its own instead); nil where fewer than ``folds`` examples can be read (restored ones keep no ink).
    func run(start: LSTMAdapter, base: _FloatLSTMNetwork, examples: [LSTMAdapterTraining.Example],
             training: LSTMAdapterTraining, model: LoadedModel,
             options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> WriterProfileCheck? {
        guard let usable = readable(examples) else { return nil }
        let pool = FloatBufferPool()
        var tallies: [Tally] = []
        for f in 0..<folds {
            tallies.append(try run(f, of: usable, start: start, base: base, training: training, model: model,
                                   options: options, pool: pool))
        }
        return Self.check(of: usable, tallies)
    }

    /// The word errors of `pipeline`'s best reading of `e`'s ink against its text (none for a lone letter read in
    /// either case; every word for no reading).
    static func wordErrors(_ pipeline: LinePipeline, _ e: LSTMAdapterTraining.Example) throws(DigitalInkError) -> Int {
        guard let ink = e.ink, let text = e.text else { return 0 }
        let best = try pipeline.recognize(ink, context: RecognitionContext()).best?.text ?? ""
        if e.otherCase != nil, best.lowercased() == text.lowercased() { return 0 }
        return edits(words(of: text), words(of: best))
    }

    static func words(of text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }

    /// Levenshtein distance between two sequences.
    static func edits<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count), current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// What a profile's last check read (``WriterProfile/check``): the kept pairs in five runs, each run read by a change
/// learned from the other runs and by the model without any change, through the decoder and its language model,
/// and the word errors of both readings. The profile changes readings only where the runs' changes made fewer
/// (``showsGain``): a writer the model already reads as well as a profile can is read as before.
public struct WriterProfileCheck: Sendable, Hashable, Codable {
    /// The pairs read, each once (the kept ones; a restored profile keeps none of the pairs it learned before).
    public let pairs: Int
    /// The words of their texts.
    public let words: Int
    /// Word errors of the model's readings without any change (a word misread, or a line's words substituted,
    /// left out and added).
    public let wordErrorsWithout: Int
    /// Word errors of the readings with a change learned from the other pairs.
    public let wordErrorsWith: Int

    public init(pairs: Int, words: Int, wordErrorsWithout: Int, wordErrorsWith: Int) {
        self.pairs = pairs
        self.words = words
        self.wordErrorsWithout = wordErrorsWithout
        self.wordErrorsWith = wordErrorsWith
    }

    /// Whether the changes made fewer word errors on the writer's held-out pairs than the model alone.
    public var showsGain: Bool { wordErrorsWith < wordErrorsWithout }
}
