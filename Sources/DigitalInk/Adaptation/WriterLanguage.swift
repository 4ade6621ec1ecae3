import Foundation

/// How well a recognizer's language model explains a writer's confirmed texts (``DigitalInkRecognizer/languageFit(of:)``).
///
/// A recognizer reads every writer through its model's language model, and that model outvotes the network
/// where the two disagree. A writer who writes another language than the model's is read through the wrong
/// one, and no change to the network overrules it (issue 41: a German writer read through en-US is 20% right,
/// through `de` 50%). The texts a writer confirmed tell which language they write:
/// ``DigitalInkRecognizer/suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)`` compares
/// the recognizers an app has.
public struct LanguageFit: Sendable, Hashable {
    /// The model's identifier (`config.json`'s `"identifier"`).
    public let identifier: String
    /// The mean of −ln P over the characters scored: each text's characters from the start of a text, and its
    /// end (the language model's probability of a space after it, as the decoder scores the end of a reading).
    /// Lower is a better fit; infinity when nothing was scored.
    public let natsPerCharacter: Double
    /// How many characters were scored (ends included). Characters the model cannot write are skipped.
    public let characters: Int
}

extension DigitalInkRecognizer {
    /// By how many nats per character another language model must explain the texts better before
    /// ``suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)`` suggests it: 1.0, the text
    /// e times as likely per character. No other Latin model fits the first 10, 20 or 50 words of any of 25
    /// held-out UNIPEN writers of English more than 0.37 better than en-US does; `de` fits a writer of German
    /// words 1.8 or more better (`Docs/personalization.md`).
    public static let defaultLanguageMargin = 1.0
    /// The fewest characters scored before a suggestion is made: 30 (about five words).
    public static let defaultLanguageMinimumCharacters = 30

    /// How well this recognizer's language model explains `texts` (what a writer confirmed): see ``LanguageFit``.
    ///
    /// - Throws: the model errors of ``load()``; ``DigitalInkError/invalidOption(name:reason:)`` when the
    ///   recognizer reads without a language model (a classifier, a model without one, or
    ///   ``DigitalInkRecognizerOptions/useLanguageModel`` off).
    public func languageFit(of texts: [String]) async throws(DigitalInkError) -> LanguageFit {
        let model = try await loadedModel()
        guard options.useLanguageModel, model.configuration.modelKind == .text, let lm = model.languageModel else {
            throw .invalidOption(name: "languageModel", reason: "\(model.configuration.identifier) reads without a language model")
        }
        return LanguageFit(identifier: model.configuration.identifier, scoring: texts, labels: model.labelText, with: lm)
    }

    /// The recognizer among `candidates` whose language model explains `texts` (what a writer confirmed) better
    /// than this recognizer's by at least `margin` nats per character, the best such one; nil when none does, or
    /// when fewer than `minimumCharacters` were scored. Only candidates on this recognizer's network are compared
    /// (the same weights file, so a ``WriterProfile`` made here applies there too); others, and those without a
    /// language model, are skipped. The app decides whether to switch (and keeps its profile if it does).
    ///
    /// ```swift
    /// if let better = try await recognizer.suggestedRecognizer(forConfirmedTexts: kept, among: bundled) {
    ///     try await profile.recheck(through: better)   // the profile's check, read with that language model
    ///     recognizer = better.withOptions { $0.writerProfile = profile }
    /// }
    /// ```
    ///
    /// - Throws: as ``languageFit(of:)`` for this recognizer; a candidate's model errors (not downloaded,
    ///   corrupt); ``DigitalInkError/invalidOption(name:reason:)`` for a negative or non-finite `margin`.
    /// - Complexity: loads every candidate that is not loaded yet.
    public func suggestedRecognizer(forConfirmedTexts texts: [String], among candidates: [DigitalInkRecognizer],
                                    margin: Double = DigitalInkRecognizer.defaultLanguageMargin,
                                    minimumCharacters: Int = DigitalInkRecognizer.defaultLanguageMinimumCharacters)
        async throws(DigitalInkError) -> DigitalInkRecognizer?
    {
        guard margin.isFinite, margin >= 0 else { throw .invalidOption(name: "margin", reason: "\(margin) is not a finite number ≥ 0") }
        let own = try await languageFit(of: texts)
        guard own.characters >= minimumCharacters else { return nil }
        let digest = try await loadedModel().networkDigest()
        var best: (recognizer: DigitalInkRecognizer, fit: LanguageFit)?
        for candidate in candidates where candidate !== self {
            let model = try await candidate.loadedModel()
            guard candidate.options.useLanguageModel, model.configuration.modelKind == .text, let lm = model.languageModel,
                  try model.networkDigest() == digest
            else { continue }
            let fit = LanguageFit(identifier: model.configuration.identifier, scoring: texts, labels: model.labelText, with: lm)
            if fit.natsPerCharacter <= own.natsPerCharacter - margin, fit.natsPerCharacter < best?.fit.natsPerCharacter ?? .infinity {
                best = (candidate, fit)
            }
        }
        return best?.recognizer
    }

    /// Completion-handler form of ``languageFit(of:)``. The handler runs on an arbitrary thread.
    public func languageFit(of texts: [String], completion: @escaping @Sendable (Result<LanguageFit, DigitalInkError>) -> Void) {
        Self.complete(completion) { try await self.languageFit(of: texts) }
    }

    /// Completion-handler form of ``suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)``. The
    /// handler runs on an arbitrary thread.
    public func suggestedRecognizer(forConfirmedTexts texts: [String], among candidates: [DigitalInkRecognizer],
                                    margin: Double = DigitalInkRecognizer.defaultLanguageMargin,
                                    minimumCharacters: Int = DigitalInkRecognizer.defaultLanguageMinimumCharacters,
                                    completion: @escaping @Sendable (Result<DigitalInkRecognizer?, DigitalInkError>) -> Void) {
        Self.complete(completion) {
            try await self.suggestedRecognizer(forConfirmedTexts: texts, among: candidates, margin: margin, minimumCharacters: minimumCharacters)
        }
    }
}

extension LanguageFit {
    /// Scores `texts` with `lm` (bound to the model's labels): each text from the start state, the characters
    /// the labels can write, then the space as its end where the labels have one.
    init(identifier: String, scoring texts: [String], labels: LabelText, with lm: CharacterNgramModel) {
        let end = labels.symbolOfCharacter[" "]
        var nats = 0.0, count = 0
        for text in texts {
            var state = lm.startState(preContext: [])
            var scored = 0
            for ch in text {
                guard let symbols = labels.symbols(of: ch) else { continue }
                for s in symbols {
                    let (lp, next) = lm.score(s, after: state)
                    nats -= Double(lp)
                    state = next
                    scored += 1
                }
            }
            if scored > 0, let end {
                nats -= Double(lm.score(end, after: state).logProbability)
                scored += 1
            }
            count += scored
        }
        self.init(identifier: identifier, natsPerCharacter: count > 0 ? nats / Double(count) : .infinity, characters: count)
    }
}
