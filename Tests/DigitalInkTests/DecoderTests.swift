import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// A bigram model over a tiny alphabet, written out as a table, to test the decoder on its own.
struct TableBigramModel: LanguageModel {
    /// log P(next | previous), previous 0 = start of text. Missing pairs get `floor`.
    var table: [Int: [Int: Float]]
    var floor: Float = -10

    func startState(preContext: [Int]) -> Int { preContext.last ?? 0 }
    func score(_ symbol: Int, after state: Int) -> (logProbability: Float, next: Int) {
        (table[state]?[symbol] ?? floor, symbol)
    }
}

/// Per-frame log-probabilities from rows of probabilities (renormalized).
func frames(_ rows: [[Float]]) -> FeatureMatrix {
    let c = rows[0].count
    var v: [Float] = []
    for r in rows {
        let s = r.reduce(0, +)
        v += r.map { logf(max($0 / s, 1e-12)) }
    }
    return FeatureMatrix(rows: rows.count, columns: c, values: v)
}

@Suite("CTC prefix beam search")
struct DecoderTests {
    // Classes: 0 blank, 1 "a", 2 "b", 3 " ".
    let noLM: TableBigramModel? = nil

    @Test("without a language model the clear path wins and repeats collapse")
    func collapse() {
        let lp = frames([[0.1, 0.8, 0.05, 0.05], [0.1, 0.8, 0.05, 0.05], [0.8, 0.1, 0.05, 0.05], [0.1, 0.8, 0.05, 0.05], [0.1, 0.05, 0.8, 0.05]])
        let best = CTCPrefixBeamSearch(beamWidth: 8).decode(lp, languageModel: noLM, maxResults: 3)
        #expect(best.first?.symbols == [1, 1, 2])
        #expect(best.count == 3)
        #expect(best[0].score >= best[1].score && best[1].score >= best[2].score)
    }

    @Test("the prefix score sums over alignments: a frequent label beats the single best path")
    func sumsAlignments() {
        // Best single path is blank,blank ("" ) but "a" has more total mass over its alignments.
        let lp = frames([[0.6, 0.4, 0, 0], [0.6, 0.4, 0, 0]])
        let best = CTCPrefixBeamSearch(beamWidth: 8).decode(lp, languageModel: noLM, maxResults: 2)
        // P("") = .36, P("a") = .4*.6 + .6*.4 + .4*.4 = .64
        #expect(best.first?.symbols == [1])
        #expect(abs(best[0].score - logf(0.64)) < 1e-4)
    }

    @Test("a language model resolves an ambiguous frame")
    func languageModelPrior() {
        let lp = frames([[0.1, 0.45, 0.45, 0.0]])
        let preferB = TableBigramModel(table: [0: [1: logf(0.1), 2: logf(0.9)]])
        let preferA = TableBigramModel(table: [0: [1: logf(0.9), 2: logf(0.1)]])
        let s = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1)
        #expect(s.decode(lp, languageModel: preferB, maxResults: 1).first?.symbols == [2])
        #expect(s.decode(lp, languageModel: preferA, maxResults: 1).first?.symbols == [1])
    }

    @Test("pre-context conditions the language model")
    func preContext() {
        let lp = frames([[0.1, 0.45, 0.45, 0.0]])
        let lm = TableBigramModel(table: [1: [1: logf(0.9), 2: logf(0.1)], 2: [1: logf(0.1), 2: logf(0.9)]])
        let s = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1)
        #expect(s.decode(lp, languageModel: lm, preContext: [1], maxResults: 1).first?.symbols == [1])
        #expect(s.decode(lp, languageModel: lm, preContext: [2], maxResults: 1).first?.symbols == [2])
    }

    @Test("the end weight prefers hypotheses after which the language model expects the text to end")
    func endOfText() {
        // "a" and "b" are equally likely from the ink and from the LM; only "b" is usually followed by
        // a space (the end symbol).
        let lp = frames([[0.1, 0.45, 0.45, 0.0]])
        let lm = TableBigramModel(table: [0: [1: logf(0.5), 2: logf(0.5)], 1: [3: logf(0.01)], 2: [3: logf(0.9)]])
        let without = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1, insertionBonus: 0, endSymbol: 3, endWeight: 0)
        let with = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1, insertionBonus: 0, endSymbol: 3, endWeight: 1)
        let plain = without.decode(lp, languageModel: lm, maxResults: 2)
        #expect(abs(plain[0].score - plain[1].score) < 1e-6)  // a tie without the end term
        let ended = with.decode(lp, languageModel: lm, maxResults: 2)
        #expect(ended.map(\.symbols) == [[2], [1]])
        // The end term is added to the score: log P(b) + log P(" " | b).
        #expect(abs(ended[0].score - (plain[0].score + logf(0.9))) < 1e-4)
        // Without a language model the end term is not used.
        #expect(with.decode(lp, languageModel: noLM, maxResults: 2).map(\.score) == without.decode(lp, languageModel: noLM, maxResults: 2).map(\.score))
    }

    @Test("a leading space is added only where the language model wants it")
    func leadingSpace() {
        let lp = frames([[0.05, 0.9, 0.05, 0.0]])
        // After "b" a space is likely; after "a" it is not.
        let lm = TableBigramModel(table: [2: [3: logf(0.9), 1: logf(0.05)], 3: [1: logf(0.5)], 1: [3: logf(0.01), 1: logf(0.5)]])
        let s = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1)
        #expect(s.decode(lp, languageModel: lm, preContext: [2], leadingSymbol: 3, maxResults: 1).first?.symbols == [3, 1])
        #expect(s.decode(lp, languageModel: lm, preContext: [1], leadingSymbol: 3, maxResults: 1).first?.symbols == [1])
    }

    @Test("zero frames give the empty hypothesis only")
    func empty() {
        let lp = FeatureMatrix(rows: 0, columns: 4)
        let r = CTCPrefixBeamSearch().decode(lp, languageModel: noLM, maxResults: 5)
        #expect(r.map(\.symbols) == [[]])
    }
}

@Suite("CTC prefix beam search: the beam threshold")
struct BeamThresholdTests {
    /// Random peaked frames over 6 classes (blank and 5 symbols) and a random bigram LM.
    static func randomCase(_ seed: UInt64) -> (FeatureMatrix, TableBigramModel) {
        var g = SplitMix(seed: seed)
        let rows = (0..<Int.random(in: 8...20, using: &g)).map { _ -> [Float] in
            let peak = Int.random(in: 0..<6, using: &g)
            return (0..<6).map { $0 == peak ? Float.random(in: 2...8, using: &g) : Float.random(in: 0.05...1, using: &g) }
        }
        var table: [Int: [Int: Float]] = [:]
        for a in 0..<6 { for b in 1..<6 { table[a, default: [:]][b] = logf(Float.random(in: 0.05...1, using: &g)) } }
        return (frames(rows), TableBigramModel(table: table))
    }

    @Test("a wide threshold changes nothing; the best hypothesis survives a moderate one; a narrow one drops prefixes but keeps the results asked for")
    func threshold() {
        var changedCount = 0
        for seed in 0..<200 as Range<UInt64> {
            let (lp, lm) = Self.randomCase(seed)
            let full = CTCPrefixBeamSearch(beamWidth: 16, lmWeight: 0.8, insertionBonus: 0.5)
            var wide = full
            wide.beamThreshold = 1_000
            let reference = full.decode(lp, languageModel: lm, maxResults: 16)
            #expect(wide.decode(lp, languageModel: lm, maxResults: 16) == reference, "seed \(seed)")
            var moderate = full
            moderate.beamThreshold = 12
            let m = moderate.decode(lp, languageModel: lm, maxResults: 16, keepAtLeast: 3)
            #expect(m.first == reference.first, "seed \(seed)")
            #expect(m.count >= min(3, reference.count))
            // Whatever survives is ranked as in the full search (same scores for the same texts).
            let scores = Dictionary(reference.map { ($0.symbols, $0.score) }, uniquingKeysWith: max)
            for h in m { if let s = scores[h.symbols] { #expect(abs(s - h.score) < 1e-4) } }
            var narrow = full
            narrow.beamThreshold = 0.5
            let n = narrow.decode(lp, languageModel: lm, maxResults: 16, keepAtLeast: 2)
            #expect(n.count >= min(2, reference.count))
            if n.count < reference.count { changedCount += 1 }
        }
        #expect(changedCount > 100, "a threshold of 0.5 nats should prune most cases; pruned \(changedCount) of 200")
    }

    /// ``TableBigramModel`` counting its lookups.
    final class Lookups: @unchecked Sendable { var count = 0 }
    struct CountingModel: LanguageModel {
        let model: TableBigramModel
        let lookups: Lookups
        func startState(preContext: [Int]) -> Int { model.startState(preContext: preContext) }
        func score(_ symbol: Int, after state: Int) -> (logProbability: Float, next: Int) {
            lookups.count += 1
            return model.score(symbol, after: state)
        }
    }

    @Test("skipping the prefixes the threshold's cut drops, before the LM scores them, changes no hypothesis and saves lookups")
    func skipBelowThreshold() {
        var savedCases = 0, lookupsOn = 0, lookupsOff = 0
        for seed in 0..<300 as Range<UInt64> {
            let (lp, table) = Self.randomCase(seed)
            for (threshold, keep, width) in [(0.5, 1, 4), (2, 3, 16), (5, 10, 16), (12, 3, 8)] as [(Float, Int, Int)] {
                var search = CTCPrefixBeamSearch(beamWidth: width, lmWeight: 0.8, insertionBonus: 0.5)
                search.beamThreshold = threshold
                var reference = search
                reference.skipsBelowThreshold = false
                let on = Lookups(), off = Lookups()
                let got = search.decode(lp, languageModel: CountingModel(model: table, lookups: on), maxResults: width, keepAtLeast: keep)
                let want = reference.decode(lp, languageModel: CountingModel(model: table, lookups: off), maxResults: width, keepAtLeast: keep)
                #expect(got == want, "seed \(seed), threshold \(threshold), keep \(keep)")
                // (A skipped prefix leaves the beam less full, so that a later one is now and then scored
                // where a full beam's bound would have passed it over: a lookup more in a few cases.)
                if on.count < off.count { savedCases += 1 }
                lookupsOn += on.count
                lookupsOff += off.count
            }
        }
        #expect(savedCases > 100, "the skip saved lookups in \(savedCases) of 1,200 cases")
        #expect(lookupsOn < lookupsOff * 9 / 10, "\(lookupsOn) lookups against \(lookupsOff)")
    }

    @Test("a model's beamThreshold reaches the search; recognizer options override it; a non-positive one is refused")
    func settings() throws {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        let config = try ModelConfiguration.load(from: shippedModelDirectory.appendingPathComponent("config.json"))
        #expect(config.decoder?.beamThreshold == 10)
        #expect(config.beamSearch(languageModel: true).beamThreshold == 10)
        options.decoder.beamThreshold = .infinity
        #expect(config.beamSearch(languageModel: true, options: options).beamThreshold == .infinity)
        options.decoder.beamThreshold = 0
        #expect(throws: DigitalInkError.self) { try options.decoder.validate() }
    }
}

@Suite("CTC prefix beam search: symbols per frame")
struct SymbolsPerFrameTests {
    @Test("a cap at least the class count changes nothing; a cap of one extends only by each frame's most likely symbol")
    func cap() {
        for seed in 0..<100 as Range<UInt64> {
            let (lp, lm) = BeamThresholdTests.randomCase(seed)
            let full = CTCPrefixBeamSearch(beamWidth: 16, lmWeight: 0.8, insertionBonus: 0.5)
            var wide = full
            wide.symbolsPerFrame = lp.columns
            #expect(wide.decode(lp, languageModel: lm, maxResults: 8) == full.decode(lp, languageModel: lm, maxResults: 8))
            var one = full
            one.symbolsPerFrame = 1
            let best = (0..<lp.rows).map { t in (1..<lp.columns).max { lp.values[t * lp.columns + $0] < lp.values[t * lp.columns + $1] }! }
            for h in one.decode(lp, languageModel: lm, maxResults: 8) {
                #expect(h.symbols.allSatisfy(best.contains), "seed \(seed): \(h.symbols) uses a symbol that is never a frame's best")
            }
        }
    }

    @Test("en-US caps a frame at 32 symbols; options override it; zero is refused")
    func settings() throws {
        let config = try ModelConfiguration.load(from: shippedModelDirectory.appendingPathComponent("config.json"))
        #expect(config.beamSearch(languageModel: true).symbolsPerFrame == 32)
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.decoder.symbolsPerFrame = 8
        #expect(config.beamSearch(languageModel: true, options: options).symbolsPerFrame == 8)
        options.decoder.symbolsPerFrame = 0
        #expect(throws: DigitalInkError.self) { try options.decoder.validate() }
    }
}
