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
    /// close, and most inks are not (en-US: nearly two thirds of them, at a margin no re-ranking of the
    /// held-out writers' non-reported words and lines came near). Its scores are then the beam's.
    ///
    /// With a ``beamWidth``, each view's own beam search proposes candidates too (the original's beam
    /// may have lost a reading that a stretched copy finds).
    ///
    /// With a writer profile (``DigitalInkRecognizerOptions/writerProfile``) the stretched views are
    /// read through the writer's network, and where its best candidates are closer than 1 (natural-log
    /// units) the model's own network reads the ink as written for one view more: such a close call is
    /// judged by both networks (`ViewRescorer.shippedNetworkMargin`).
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
