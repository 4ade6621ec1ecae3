import Foundation

/// The view-rescoring stage of a text model (``ModelConfiguration/ViewRescoring``): where the beam's
/// best two hypotheses are close, the views (``InkViews``) are read and the best hypotheses' scores move
/// by how well they hold up under them; with a view beam width, each view's own beam proposes
/// hypotheses too. It reads views only through ``InkViews`` and never runs the network itself. Internal.
struct ViewRescorer: Sendable {
    let configuration: ModelConfiguration
    let symbolOfCharacter: [Character: Int]

    /// With a writer's adaptation, the lead (natural-log units) under which the model's own network's reading
    /// of the ink as written joins the views, first (``InkViews/base()``, read only then): its likelihood of each
    /// rescored candidate joins the mean that moves the candidate's score, and its own beam proposes readings
    /// too. 1: on the six tuning writers as many words as 2 and as on every rescored ink (5), with half the votes
    /// of 2; 0.5 read fewer (`Docs/personalization.md`, "The shipped network as one more view" and "Half the
    /// shipped network's votes").
    static let shippedNetworkMargin: Float = 1

    /// The options of a view's own beam search: `options` with the view rescoring's beam width, where
    /// that is narrower than the decoder's, and no beam threshold, so that the beam is that wide on every
    /// frame (the threshold is off with a vocabulary: with it, a vocabulary that matches nothing would
    /// change which readings the views propose).
    func viewBeamOptions(_ options: DigitalInkRecognizerOptions) -> DigitalInkRecognizerOptions {
        guard let w = configuration.viewRescoring(options: options)?.beamWidth else { return options }
        var o = options
        o.decoder.beamWidth = min(configuration.beamSearch(languageModel: true, options: options).beamWidth, w)
        o.decoder.beamThreshold = .infinity
        return o
    }

    /// `ranked` (best first), re-ranked under `views` where the model rescores with them (with
    /// `options`) and the best does not lead the second by the margin; else `ranked` as it is, and
    /// the views are not read. `beam` is a view's own beam search (``viewBeamOptions(_:)``).
    func rescored(_ ranked: [TextHypothesis], output: FeatureMatrix, views: InkViews, options: DigitalInkRecognizerOptions,
                  beam: (FeatureMatrix) -> [TextHypothesis]) throws(DigitalInkError) -> [TextHypothesis] {
        let lead = ranked.count > 1 ? ranked[0].score - ranked[1].score : .infinity
        guard let rescoring = configuration.viewRescoring(options: options), rescoring.rescores(lead: lead) else { return ranked }
        var outputs = try views.outputs()
        if lead < Self.shippedNetworkMargin, let base = try views.base() { outputs.insert(base, at: 0) }
        guard !outputs.isEmpty else { return ranked }
        return rescored(ranked, output: output, views: outputs, rescoring: rescoring, options: options, beam: beam)
    }

    /// `all` with the scores of its `rescoring.candidates` best (and, with `rescoring.beamWidth`, of the
    /// best of each view's own beam, `beam`) moved by the views, sorted again. A separator the decoder
    /// put before the text at no cost from the ink is left out of the likelihoods.
    func rescored(_ all: [TextHypothesis], output: FeatureMatrix, views: [FeatureMatrix],
                  rescoring: ModelConfiguration.ViewRescoring, options: DigitalInkRecognizerOptions,
                  beam: (FeatureMatrix) -> [TextHypothesis]) -> [TextHypothesis] {
        let k = min(all.count, rescoring.candidates ?? ModelConfiguration.ViewRescoring.defaultCandidates)
        let separator = configuration.contextSeparator(options: options)
        let free = separator.count == 1 ? symbolOfCharacter[separator.first!] : nil
        let blank = configuration.blankIndex ?? 0
        func inked(_ h: TextHypothesis) -> [Int] { h.symbols.first == free ? Array(h.symbols.dropFirst()) : h.symbols }
        var all = all
        var rescore = Array(0..<k)  // entries whose move is computed below
        var proposed: [(index: Int, move: Float)] = []  // the views' proposals, moved as they join
        if rescoring.beamWidth != nil {
            // Each view's best join: one that the original's beam did not keep scored as the original would
            // have (its language-model part, its score in that view's beam less its likelihood there, plus
            // its likelihood under the original); one it kept below its best `k` from its own score.
            var index = Dictionary(all.enumerated().map { ($1.text, $0) }, uniquingKeysWith: { a, _ in a })
            var chosen = Set(rescore)
            let keep = rescoring.candidates ?? ModelConfiguration.ViewRescoring.defaultCandidates
            for (v, view) in views.enumerated() {
                for h in beam(view).prefix(keep) {
                    if let i = index[h.text] {
                        if chosen.insert(i).inserted { rescore.append(i) }
                        continue
                    }
                    // Its likelihoods once: for the score it joins with and for its move.
                    let lls = Self.logLikelihoods(inked(h), original: output, views: views, blank: blank)
                    guard lls.original.isFinite, lls.views[v].isFinite, h.score.isFinite else { continue }
                    index[h.text] = all.count
                    chosen.insert(all.count)
                    proposed.append((all.count, Self.move(lls, weight: rescoring.weight)))
                    all.append(TextHypothesis(text: h.text, score: h.score - Float(lls.views[v]) + Float(lls.original),
                                              symbols: h.symbols))
                }
            }
        }
        let moves = Self.adjustments(rescore.map { inked(all[$0]) }, original: output, views: views,
                                     weight: rescoring.weight, blank: blank)
        for (i, move) in zip(rescore, moves) { all[i].score += move }
        for (i, move) in proposed { all[i].score += move }
        return all.sorted(by: TextHypothesis.isRankedBefore)
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
