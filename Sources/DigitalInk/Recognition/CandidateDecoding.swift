import Foundation

/// The last stage of recognition: the network's output for one ink becomes ranked candidates.
///
/// The pipeline is `Ink → FeatureExtractor → RecognitionNetwork → CandidateDecoding → candidates`;
/// a model's kind (``ModelKind``) chooses the decoder once, when the model loads. Adding a kind of
/// model (a page recognizer, a large-alphabet decoder) is adding a type that conforms.
protocol CandidateDecoding: Sendable {
    /// At most `options.maxResultCount` candidates for `output` (the network's log-probabilities,
    /// every value finite), best first. `views` gives the network's outputs for stretched copies of the
    /// ink (``ViewRescorer``) where the model rescores with them and the beam is not sure enough
    /// (``ModelConfiguration/ViewRescoring/margin``); only reading them throws.
    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate]

    /// Candidates for an ink whose context is one of `contexts`, each with its prior probability (a
    /// page's line goes on from the line above or starts afresh): a text's score is
    /// `log Σ_c prior_c · exp(score_c)` over the contexts (a text that one context's beam did not keep
    /// counts as impossible there). Contexts of prior 0 are not read; one context of prior 1 is
    /// ``candidates(for:views:context:options:)``.
    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate]
}

extension CandidateDecoding {
    /// A decoder without a pre-context (the shapes classifier) reads the likeliest context.
    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        try candidates(for: output, views: views, context: contexts.max { $0.prior < $1.prior }?.context ?? RecognitionContext(),
                       options: options)
    }

    /// The candidates of `output` alone (no views).
    func candidates(for output: FeatureMatrix, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) -> [DigitalInkRecognitionCandidate] {
        // Without views nothing is read, so nothing throws.
        (try? candidates(for: output, views: .none, context: context, options: options)) ?? []
    }
}

/// Text: a CTC prefix beam search over the per-frame log-probabilities, with the model's character
/// language model conditioned on the pre-context.
struct CTCTextDecoder: CandidateDecoding {
    let configuration: ModelConfiguration
    /// Label of each class (blank is "").
    let classLabels: [String]
    let symbolOfCharacter: [Character: Int]
    let languageModel: CharacterNgramModel?

    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        try ranked(hypotheses(for: output, context: context, options: options), output: output, views: views, options: options) {
            hypotheses(for: $0, context: context, options: viewBeam(options))
        }
    }

    func candidates(for output: FeatureMatrix, views: InkViews, eitherOf contexts: [(context: RecognitionContext, prior: Float)],
                    options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        let read = contexts.filter { $0.prior > 0 }
        guard read.count > 1 else {
            return try candidates(for: output, views: views, context: read.first?.context ?? RecognitionContext(), options: options)
        }
        return try ranked(merged(output, read, options: options), output: output, views: views, options: options) {
            merged($0, read, options: viewBeam(options))
        }
    }

    /// The options of a view's own beam search: `options` with the view rescoring's beam width, where
    /// that is narrower than the decoder's, and no beam threshold, so that the beam is that wide on every
    /// frame (the threshold is off with a vocabulary: with it, a vocabulary that matches nothing would
    /// change which readings the views propose).
    private func viewBeam(_ options: DigitalInkRecognizerOptions) -> DigitalInkRecognizerOptions {
        guard let w = configuration.viewRescoring(options: options)?.beamWidth else { return options }
        var o = options
        o.decoder.beamWidth = min(configuration.beamSearch(languageModel: true, options: options).beamWidth, w)
        o.decoder.beamThreshold = .infinity
        return o
    }

    /// The hypotheses of `output` under each of `read`'s contexts, merged per text: log Σ_c prior_c · exp(score_c).
    private func merged(_ output: FeatureMatrix, _ read: [(context: RecognitionContext, prior: Float)],
                        options: DigitalInkRecognizerOptions) -> [Decoded] {
        var merged: [String: Decoded] = [:]
        for (context, prior) in read {
            let logPrior = log(prior)
            for h in hypotheses(for: output, context: context, options: options) where h.score.isFinite {
                let s = h.score + logPrior
                if let old = merged[h.text] {
                    let (a, b) = (max(old.score, s), min(old.score, s))
                    merged[h.text] = Decoded(text: h.text, score: a + log1p(expf(b - a)), symbols: h.symbols)
                } else {
                    merged[h.text] = Decoded(text: h.text, score: s, symbols: h.symbols)
                }
            }
        }
        return merged.values.sorted(by: Decoded.isRankedBefore)
    }

    /// A final hypothesis: its text, score and classes.
    private struct Decoded {
        var text: String
        var score: Float
        var symbols: [Int]
        var length: Int { symbols.count }

        /// Best first; equal scores by text, so that the order never depends on a dictionary's.
        static func isRankedBefore(_ a: Decoded, _ b: Decoded) -> Bool {
            a.score != b.score ? a.score > b.score : a.text < b.text
        }
    }

    /// The candidates of `all` (best first): the best re-ranked under `views` where the model rescores
    /// with them and the best does not lead by its margin, then at most `options.maxResultCount`, with
    /// confidences computed over the top beam width of them.
    private func ranked(_ all: [Decoded], output: FeatureMatrix, views: InkViews,
                        options: DigitalInkRecognizerOptions,
                        beam: (FeatureMatrix) -> [Decoded]) throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] {
        var all = all
        if let rescoring = configuration.viewRescoring(options: options),
           rescoring.rescores(lead: all.count > 1 ? all[0].score - all[1].score : .infinity) {
            let outputs = try views.outputs()
            if !outputs.isEmpty {
                all = rescored(all, output: output, views: outputs, rescoring: rescoring, options: options, beam: beam)
            }
        }
        let width = configuration.beamSearch(languageModel: options.useLanguageModel && languageModel != nil,
                                             options: options).beamWidth
        let pool = all.prefix(width)
        let confidences = ConfidenceCalibration.confidences(scores: pool.map(\.score), lengths: pool.map(\.length),
                                                            calibration: configuration.decoder?.confidence)
        return all.prefix(options.maxResultCount).enumerated().map { i, h in
            DigitalInkRecognitionCandidate(text: h.text, score: h.score, confidence: i < confidences.count ? confidences[i] : 0)
        }
    }

    /// `all` with the scores of its `rescoring.candidates` best (and, with `rescoring.beamWidth`, of the
    /// best of each view's own beam, `beam`) moved by the views (``ViewRescorer``), sorted again. A
    /// separator the decoder put before the text at no cost from the ink is left out of the likelihoods.
    private func rescored(_ all: [Decoded], output: FeatureMatrix, views: [FeatureMatrix],
                          rescoring: ModelConfiguration.ViewRescoring, options: DigitalInkRecognizerOptions,
                          beam: (FeatureMatrix) -> [Decoded]) -> [Decoded] {
        let k = min(all.count, rescoring.candidates ?? ModelConfiguration.ViewRescoring.defaultCandidates)
        let separator = configuration.contextSeparator(options: options)
        let free = separator.count == 1 ? symbolOfCharacter[separator.first!] : nil
        let blank = configuration.blankIndex ?? 0
        func inked(_ h: Decoded) -> [Int] { h.symbols.first == free ? Array(h.symbols.dropFirst()) : h.symbols }
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
                    let lls = ViewRescorer.logLikelihoods(inked(h), original: output, views: views, blank: blank)
                    guard lls.original.isFinite, lls.views[v].isFinite, h.score.isFinite else { continue }
                    index[h.text] = all.count
                    chosen.insert(all.count)
                    proposed.append((all.count, ViewRescorer.move(lls, weight: rescoring.weight)))
                    all.append(Decoded(text: h.text, score: h.score - Float(lls.views[v]) + Float(lls.original),
                                       symbols: h.symbols))
                }
            }
        }
        let moves = ViewRescorer.adjustments(rescore.map { inked(all[$0]) }, original: output, views: views,
                                             weight: rescoring.weight, blank: blank)
        for (i, move) in zip(rescore, moves) { all[i].score += move }
        for (i, move) in proposed { all[i].score += move }
        return all.sorted(by: Decoded.isRankedBefore)
    }

    /// Every final hypothesis of the beam search (the beam's width of them, at least
    /// `options.maxResultCount`), best first.
    private func hypotheses(for output: FeatureMatrix, context: RecognitionContext,
                            options: DigitalInkRecognizerOptions) -> [Decoded] {
        let lm = options.useLanguageModel ? languageModel : nil
        var search = configuration.beamSearch(languageModel: lm != nil, options: options)
        let pre = Array(context.preContext.suffix(RecognitionContext.maxPreContextLength))
        let preSymbols = pre.compactMap { symbolOfCharacter[$0] }
        // A pre-context that ends inside a line: the text may start with the context separator (a
        // space; none for a language written without spaces) at no acoustic cost.
        var allowed = options.allowedCharacters.map { set in classLabels.enumerated().map { $0 == 0 || set.contains(Character($1)) } }
        var leading: Int? = nil
        let separator = configuration.contextSeparator(options: options)
        if lm != nil, separator.count == 1, let last = pre.last, !last.isWhitespace,
           let s = symbolOfCharacter[separator.first!], allowed?[s] ?? true {
            leading = s
        }
        let walk = options.vocabulary.map { $0.walk(labels: classLabels) }
        // The post-context's symbols, up to the first character the model cannot output.
        var postSymbols: [Int] = []
        for ch in context.postContext.prefix(RecognitionContext.maxPostContextLength) {
            guard let s = symbolOfCharacter[ch] else { break }
            postSymbols.append(s)
        }
        if let vocabulary = options.vocabulary, vocabulary.isStrict {
            // Only the entries' characters, and every one of them in every frame (not only those above
            // the floor), so that an ink unlike every entry still ends on the closest complete one.
            search.symbolLogProbabilityFloor = -.infinity
            let characters = vocabulary.trie.characters
            allowed = classLabels.enumerated().map { c, label in
                c == 0 || ((allowed?[c] ?? true) && label.first.map(characters.contains) == true)
            }
        }
        // Every final hypothesis (the beam's width of them): the confidences come from all of them.
        return search.decode(output, languageModel: lm, preContext: preSymbols, leadingSymbol: leading,
                             maxResults: max(search.beamWidth, options.maxResultCount), allowed: allowed, vocabulary: walk,
                             postContext: postSymbols, keepAtLeast: options.maxResultCount).map { h in
            Decoded(text: h.symbols.map { classLabels[$0] }.joined(), score: h.score, symbols: h.symbols)
        }
    }
}

/// A classifier (shapes): one row of class log-probabilities; every class is a candidate, scored by
/// its probability.
struct ClassifierDecoder: CandidateDecoding {
    let classLabels: [String]

    func candidates(for output: FeatureMatrix, views: InkViews, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) -> [DigitalInkRecognitionCandidate] {
        let ranked = (0..<output.columns).map { c in
            DigitalInkRecognitionCandidate(text: classLabels[c], score: expf(output[0, c]), confidence: expf(output[0, c]))
        }.sorted { $0.score > $1.score }
        return Array(ranked.prefix(options.maxResultCount))
    }
}
