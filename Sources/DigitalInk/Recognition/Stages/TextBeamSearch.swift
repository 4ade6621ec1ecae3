/// The beam-search stage of a text model: sets up a CTC prefix beam search (``CTCPrefixBeamSearch``)
/// for one recognition (the model's decoder settings with the options' overrides, the language model
/// if used, the pre- and post-context as symbols, the hints as a mask and a vocabulary walk) and runs
/// it over the network's output. Internal.
struct TextBeamSearch: Sendable {
    let configuration: ModelConfiguration
    /// Label of each class (blank is "").
    let classLabels: [String]
    let symbolOfCharacter: [Character: Int]
    let languageModel: CharacterNgramModel?

    /// How the classes spell text (``LabelText``): the configuration's text form.
    var labelText: LabelText {
        LabelText(classLabels: classLabels, symbolOfCharacter: symbolOfCharacter, form: configuration.labelTextForm)
    }

    /// Every final hypothesis of the beam search of `output` after `context` (the beam's width of
    /// them, at least `options.maxResultCount`), best first.
    func hypotheses(for output: FeatureMatrix, context: RecognitionContext,
                    options: DigitalInkRecognizerOptions) -> [TextHypothesis] {
        let lm = options.useLanguageModel ? languageModel : nil
        var search = configuration.beamSearch(languageModel: lm != nil, options: options)
        let pre = Array(context.preContext.suffix(RecognitionContext.maxPreContextLength))
        let labels = labelText
        // Each character's symbols (a jamo model's syllable: its jamo); one the model cannot write is left out.
        let preSymbols = pre.flatMap { labels.symbols(of: $0) ?? [] }
        // A pre-context that ends inside a line: the text may start with the context separator (a
        // space; none for a language written without spaces) at no acoustic cost.
        var allowed = options.allowedCharacters.map(labels.allowedClasses)
        var leading: Int? = nil
        let separator = configuration.contextSeparator(options: options)
        if lm != nil, separator.count == 1, let last = pre.last, !last.isWhitespace,
           let s = symbolOfCharacter[separator.first!], allowed?[s] ?? true {
            leading = s
        }
        let walk = options.vocabulary.map { $0.walk(labels: classLabels, form: labels.form) }
        // The post-context's symbols, up to the first character the model cannot output.
        var postSymbols: [Int] = []
        for ch in context.postContext.prefix(RecognitionContext.maxPostContextLength) {
            guard let s = labels.symbols(of: ch) else { break }
            postSymbols.append(contentsOf: s)
        }
        if let vocabulary = options.vocabulary, vocabulary.isStrict {
            // Only the entries' characters, and every one of them in every frame (not only those above
            // the floor), so that an ink unlike every entry still ends on the closest complete one.
            search.symbolLogProbabilityFloor = -.infinity
            let characters = vocabulary.trie(for: labels.form).characters
            allowed = classLabels.enumerated().map { c, label in
                c == 0 || ((allowed?[c] ?? true) && label.first.map(characters.contains) == true)
            }
        }
        // Every final hypothesis (the beam's width of them): the confidences come from all of them.
        let hypotheses = search.decode(output, languageModel: lm, preContext: preSymbols, leadingSymbol: leading,
                                       maxResults: max(search.beamWidth, options.maxResultCount), allowed: allowed, vocabulary: walk,
                                       postContext: postSymbols, keepAtLeast: options.maxResultCount).map { h in
            TextHypothesis(text: labels.text(of: h.symbols), score: h.score, symbols: h.symbols)
        }
        // A jamo model's mask allows the jamo of the allowed syllables, which spell others too: those go.
        guard labels.form != nil, let set = options.allowedCharacters else { return hypotheses }
        return hypotheses.filter { labels.admits($0.text, allowed: set) }
    }
}
