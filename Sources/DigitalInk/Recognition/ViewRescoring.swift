import Foundation

extension ModelConfiguration {
    /// `decoder.viewRescoring` in `config.json`: the best candidates re-ranked by how well they hold
    /// up when the ink is read again, stretched horizontally.
    ///
    /// The network reads the ink once more for each factor of ``stretches`` (every x multiplied by
    /// it). For each of the ``candidates`` best candidates, with ℓ_v its CTC log-likelihood
    /// (``CTCLikelihood``) under view v (v = 0 the ink as written), the score becomes
    ///
    ///     score + weight · (mean_v ℓ_v − ℓ_0)
    ///
    /// over the views that can emit the candidate at all (a shorter view may have too few frames for
    /// a long text). Where the views agree with the original nothing moves; a reading that only the
    /// ink's exact letter widths support loses to one that every view supports. The candidates are
    /// re-ranked before their confidences are computed. `Training/inkrec_training/views.py` is the
    /// reference the fixture `ctc-likelihood.json` pins; ``DecoderSettings/viewWeight`` overrides
    /// ``weight`` (0 turns the rescoring off).
    ///
    /// With a ``margin``, an ink whose best candidate leads the second by at least that much is not
    /// rescored, and its views are never read: the views move a ranking only where the beam was
    /// close, and most inks are not (en-US: more than half of them, at a margin no re-ranking of the
    /// held-out writers' non-reported words and lines came near). Its scores are then the beam's.
    ///
    /// With a ``beamWidth``, each view's own beam search proposes candidates too (the original's beam
    /// may have lost a reading that a stretched copy finds).
    ///
    /// ```json
    /// "viewRescoring": {"stretches": [0.88, 1.12], "weight": 1.0, "candidates": 10, "margin": 5, "beamWidth": 16}
    /// ```
    @_spi(Engine) public struct ViewRescoring: Sendable, Hashable, Codable {
        /// Horizontal stretch factors of the extra views: 1 to ``maxViews`` of them, each in
        /// `0.5...2` and not 1.
        public var stretches: [Double]
        /// How far the mean log-likelihood moves a score (natural-log units per unit); finite, at
        /// most ``ModelConfiguration/Limits/weight`` in size.
        public var weight: Float
        /// How many of the best candidates are rescored, `1...maxCandidates`; absent: 10.
        public var candidates: Int?
        /// Rescore only when the best candidate leads the second by less than this (natural-log
        /// units, positive and finite); absent: always.
        public var margin: Float?
        /// With a width, each view also has a beam search of its own, this wide (at most the decoder's
        /// width), and its best ``candidates`` that the original's beam did not keep join the rescored
        /// ones, scored as the original would have scored them: their score in that view's beam less
        /// their log-likelihood there (what the language model and the bonuses gave them) plus their
        /// log-likelihood under the original. A reading that the ink as written pushed out of the beam
        /// but a stretched copy found can so win. Absent: only the original's candidates are rescored.
        public var beamWidth: Int?

        /// The most views a model may ask for: 4.
        public static let maxViews = 4
        /// The most candidates a model may have rescored: 100.
        public static let maxCandidates = 100
        /// The rescored candidates where `config.json` gives no number: 10.
        public static let defaultCandidates = 10

        public init(stretches: [Double], weight: Float, candidates: Int? = nil, margin: Float? = nil, beamWidth: Int? = nil) {
            self.stretches = stretches
            self.weight = weight
            self.candidates = candidates
            self.margin = margin
            self.beamWidth = beamWidth
        }

        /// Whether candidates whose best leads the second by `lead` are rescored (`lead` is +∞ for a
        /// single candidate: nothing to re-rank).
        func rescores(lead: Float) -> Bool {
            lead.isFinite && lead < (margin ?? .infinity)
        }

        func validate(file: String) throws(DigitalInkError) {
            func bad(_ r: String) -> DigitalInkError { .modelCorrupt(file: file, reason: "decoder.viewRescoring.\(r)") }
            guard (1...Self.maxViews).contains(stretches.count) else { throw bad("stretches must hold 1 to \(Self.maxViews) factors") }
            for f in stretches where !((0.5...2).contains(f) && f != 1) {
                throw bad("stretches: \(f) is not in 0.5...2 or is 1")
            }
            guard weight.isFinite, abs(weight) <= Limits.weight else { throw bad("weight must be finite, at most \(Limits.weight) in size") }
            if let k = candidates, !(1...Self.maxCandidates).contains(k) { throw bad("candidates must be in 1...\(Self.maxCandidates)") }
            if let m = margin, !(m.isFinite && m > 0 && m <= Limits.weight) {
                throw bad("margin must be positive and finite, at most \(Limits.weight)")
            }
            if let w = beamWidth, !(1...DecoderSettings.maxBeamWidth).contains(w) {
                throw bad("beamWidth must be in 1...\(DecoderSettings.maxBeamWidth)")
            }
        }
    }

    /// The view rescoring a recognition with `options` runs: the model's, with
    /// ``DecoderSettings/viewWeight`` when set; nil where the model has none or the weight is 0.
    func viewRescoring(options: DigitalInkRecognizerOptions?) -> ViewRescoring? {
        guard modelKind == .text, var r = decoder?.viewRescoring else { return nil }
        if let w = options?.decoder.viewWeight { r.weight = w }
        return r.weight == 0 ? nil : r
    }
}

/// The views of one ink as a decoder receives them: read when it first asks (never, for an ink its
/// beam is sure of), or already read (a page reads every line's views concurrently beforehand).
struct InkViews {
    private let read: () throws(DigitalInkError) -> [FeatureMatrix]

    /// No views (a model that does not rescore with them, or a test of the beam alone).
    static var none: InkViews { InkViews(outputs: []) }

    /// Views read by `read` (``ViewRescorer/viewOutputs(_:writingArea:model:options:)``) when asked for.
    init(reading read: @escaping () throws(DigitalInkError) -> [FeatureMatrix]) { self.read = read }

    /// Views already read.
    init(outputs: [FeatureMatrix]) { self.read = { outputs } }

    /// The network's log-probabilities for each view (empty: none).
    func outputs() throws(DigitalInkError) -> [FeatureMatrix] { try read() }
}

/// The extra reads of an ink that ``ModelConfiguration/ViewRescoring`` compares candidates under, and
/// the score changes that follow. Internal engine type.
enum ViewRescorer {
    /// `ink` with every x multiplied by `factor` (y and timestamps kept).
    static func stretched(_ ink: Ink, by factor: Double) -> Ink {
        let f = Float(factor)
        return Ink(strokes: ink.strokes.map { stroke in
            Stroke(points: stroke.points.map { p in
                var p = p
                p.x *= f
                return p
            })
        })
    }

    /// The network's log-probabilities for each stretched view of `ink` that it can read: a view
    /// that would be too long for the frame limit (the original was not) is left out.
    static func viewOutputs(_ ink: Ink, writingArea: WritingArea?, model: LoadedModel,
                            options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [FeatureMatrix] {
        guard let rescoring = model.configuration.viewRescoring(options: options) else { return [] }
        var outputs: [FeatureMatrix] = []
        for factor in rescoring.stretches {
            do {
                let (output, _) = try DigitalInkRecognizer.networkOutput(stretched(ink, by: factor), writingArea: writingArea,
                                                                        model: model, origins: false)
                if output.rows > 0 { outputs.append(output) }
            } catch {
                if case .invalidInk(.tooLong) = error { continue }
                throw error
            }
        }
        return outputs
    }

    /// What each candidate's score moves by: `weight · (mean_v ℓ_v − ℓ_0)` for the class sequences
    /// `candidates`, with ℓ_0 under `original` and the mean over `original` and those of `views`
    /// under which the candidate has a path. 0 for a candidate that `original` cannot emit (it did
    /// not come from this output).
    static func adjustments(_ candidates: [[Int]], original: FeatureMatrix, views: [FeatureMatrix], weight: Float,
                            blank: Int = 0) -> [Float] {
        candidates.map { labels in
            move(logLikelihoods(labels, original: original, views: views, blank: blank), weight: weight)
        }
    }

    /// ℓ_0 of `labels` under `original`, then ℓ_v under each of `views` (not computed, and empty, where
    /// ℓ_0 is −∞).
    static func logLikelihoods(_ labels: [Int], original: FeatureMatrix, views: [FeatureMatrix], blank: Int = 0)
        -> (original: Double, views: [Double]) {
        let l0 = CTCLikelihood.logLikelihood(labels, logProbs: original, blank: blank)
        guard l0.isFinite else { return (l0, []) }
        return (l0, views.map { CTCLikelihood.logLikelihood(labels, logProbs: $0, blank: blank) })
    }

    /// `weight · (mean − ℓ_0)` over ℓ_0 and the finite ℓ_v of `likelihoods`; 0 where ℓ_0 is −∞.
    static func move(_ likelihoods: (original: Double, views: [Double]), weight: Float) -> Float {
        let l0 = likelihoods.original
        guard l0.isFinite else { return 0 }
        var sum = l0, n = 1.0
        for l in likelihoods.views where l.isFinite { sum += l; n += 1 }
        return weight * Float(sum / n - l0)
    }
}
