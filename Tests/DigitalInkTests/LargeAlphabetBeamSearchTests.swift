import _InkKernels
import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The CTC prefix beam search over output layers of thousands of classes (the CJK network has 11,202),
/// checked against a brute-force decoder on cases small enough to enumerate.
///
/// A case has T = 4–6 frames over C classes. Each frame has a few plausible symbols and the blank
/// (random log-probabilities, all above the search's default `symbolLogProbabilityFloor`, −9), and
/// every other class at −60 (never tried by the search, and left out by the brute force). The brute force enumerates every path over each frame's
/// blank and plausible classes, collapses it (repeats merged, then blanks removed), and sums the
/// probabilities of the paths of each label sequence (log-sum-exp, in Double); a label sequence's score
/// is that sum + `lmWeight` · its language-model log-probability (each symbol's clamped to ≤ 0, as the
/// search does) + `insertionBonus` · its length (+ `endWeight` · the end symbol's log-probability). A
/// beam as wide as the number of label sequences prunes nothing, so its hypotheses and scores must be
/// the brute force's best ones, up to float rounding.
@Suite("CTC prefix beam search over thousands of classes equals a brute-force decoder")
struct LargeAlphabetBeamSearchTests {
    /// Absolute tolerance on the scores (Float search, Double brute force; the largest difference seen is 3.4e-6).
    static let tolerance: Double = 5e-5
    static let floor: Float = -9  // CTCPrefixBeamSearch's default symbolLogProbabilityFloor
    static let maxResults = 10

    /// One random case: the log-probabilities, and per frame the plausible classes (most likely first)
    /// with their log-probabilities, and the blank's.
    struct Case {
        var logProbs: FeatureMatrix
        var plausible: [[(cls: Int, lp: Float)]]
        var blank: [Float]
        var classes: Int { logProbs.columns }
        var maxPlausible: Int { plausible.map(\.count).max() ?? 0 }
    }

    /// A case over `classes` classes whose frames draw their plausible symbols from `pool` (a few
    /// classes, so that adjacent frames often share a symbol and the CTC repeat rule matters).
    static func makeCase(_ g: inout SplitMix, classes C: Int, pool: [Int]) -> Case {
        let T = Int.random(in: 4...6, using: &g)
        var values = [Float](repeating: -60, count: T * C)
        var plausible: [[(cls: Int, lp: Float)]] = [], blank: [Float] = []
        var paths = 1
        for t in 0..<T {
            // At most about 3,000 paths, so that the brute force stays quick in a debug build.
            var k = Int.random(in: 1...4, using: &g)
            while k > 1, paths * (k + 1) > 3_000 { k -= 1 }
            paths *= k + 1
            let symbols = Array(pool.shuffled(using: &g).prefix(k))
            // Blank and plausible symbols: a softmax of logits in [−2.5, 2.5], so the row sums to 1
            // (less the −60 classes) and every plausible log-probability is above −5 − log 5 > floor.
            let logits = (0...k).map { _ in Double.random(in: -2.5...2.5, using: &g) }
            let m = logits.max()!
            let lse = m + log(logits.reduce(0) { $0 + exp($1 - m) })
            let lps = logits.map { Float($0 - lse) }
            values[t * C] = lps[0]
            blank.append(lps[0])
            var row: [(cls: Int, lp: Float)] = []
            for (i, c) in symbols.enumerated() {
                values[t * C + c] = lps[i + 1]
                row.append((c, lps[i + 1]))
            }
            precondition(row.allSatisfy { $0.lp > floor })
            plausible.append(row.sorted { $0.lp > $1.lp })
        }
        return Case(logProbs: FeatureMatrix(rows: T, columns: C, values: values), plausible: plausible, blank: blank)
    }

    /// The acoustic log-probability of every label sequence: paths over, per frame, the blank and the
    /// plausible classes the search tries, collapsed. The search tries a frame's symbols above `floor`
    /// (its most likely one when none is), at most `cap` of them, the most likely ones.
    static func acoustic(_ c: Case, cap: Int = .max, floor: Float = floor) -> [[Int]: Double] {
        let choices: [[(cls: Int, lp: Double)]] = (0..<c.plausible.count).map { t in
            let above = c.plausible[t].filter { $0.lp > floor }
            let tried = above.isEmpty ? [c.plausible[t][0]] : above.prefix(cap)
            return [(0, Double(c.blank[t]))] + tried.map { ($0.cls, Double($0.lp)) }
        }
        var sums: [[Int]: Double] = [:]
        var index = [Int](repeating: 0, count: choices.count)
        while true {
            var labels: [Int] = [], previous = -1, lp = 0.0
            for (t, i) in index.enumerated() {
                let (cls, l) = choices[t][i]
                lp += l
                if cls != 0 && cls != previous { labels.append(cls) }
                previous = cls
            }
            sums[labels] = sums[labels].map { logAddExp($0, lp) } ?? lp
            // Next path (an odometer over the frames' choices).
            var t = choices.count - 1
            while t >= 0 {
                index[t] += 1
                if index[t] < choices[t].count { break }
                index[t] = 0
                t -= 1
            }
            if t < 0 { return sums }
        }
    }

    static func logAddExp(_ a: Double, _ b: Double) -> Double { max(a, b) + log1p(exp(-abs(a - b))) }

    /// The brute force's scores: acoustic + the language-model terms the search documents.
    static func bruteForce<LM: LanguageModel>(_ c: Case, search s: CTCPrefixBeamSearch, languageModel lm: LM?,
                                              preContext: [Int], cap: Int = .max) -> [[Int]: Double] {
        var out: [[Int]: Double] = [:]
        for (labels, ac) in acoustic(c, cap: cap, floor: s.symbolLogProbabilityFloor) {
            var score = ac + Double(s.insertionBonus) * Double(labels.count)
            if let lm {
                var state = lm.startState(preContext: preContext)
                var lmLp: Float = 0
                for sym in labels {
                    let r = lm.score(sym, after: state)
                    lmLp += min(r.logProbability, 0)
                    state = r.next
                }
                score += Double(s.lmWeight) * Double(lmLp)
                if let end = s.endSymbol, s.endWeight != 0 {
                    score += Double(s.endWeight) * Double(lm.score(end, after: state).logProbability)
                }
            }
            out[labels] = score
        }
        return out
    }

    /// Expects the search's hypotheses to be the brute force's best `maxResults`, in order, with its
    /// scores. Ties closer than the tolerance may come in either order.
    static func expectMatch(_ got: [CTCPrefixBeamSearch.Hypothesis], _ reference: [[Int]: Double],
                            _ comment: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        let best = reference.sorted { $0.value > $1.value }.prefix(maxResults)
        #expect(got.count == best.count, "\(comment()): \(got.count) hypotheses, brute force \(best.count)",
                sourceLocation: sourceLocation)
        for (i, (h, b)) in zip(got, best).enumerated() {
            #expect(abs(Double(h.score) - b.value) < tolerance,
                    "\(comment()): rank \(i) scores \(h.score), brute force \(b.value)", sourceLocation: sourceLocation)
            let own = reference[h.symbols]
            #expect(own != nil && abs(Double(h.score) - own!) < tolerance,
                    "\(comment()): \(h.symbols) scores \(h.score), brute force \(own.map { "\($0)" } ?? "none")",
                    sourceLocation: sourceLocation)
        }
        #expect(Set(got.map(\.symbols)).count == got.count, "\(comment()): a label sequence twice", sourceLocation: sourceLocation)
    }

    /// A search that prunes nothing on `c`: as wide as the number of label sequences (the prefixes alive
    /// after any frame are among them), with no beam threshold.
    static func wide(_ c: Case, floor: Float = floor) -> CTCPrefixBeamSearch {
        CTCPrefixBeamSearch(beamWidth: max(acoustic(c, floor: floor).count, maxResults), lmWeight: 0.8, insertionBonus: 0.5,
                            symbolLogProbabilityFloor: floor)
    }

    /// Checks one case with one language model: the full search, the floor, and the symbol caps.
    static func check<LM: LanguageModel>(_ c: Case, languageModel lm: LM?, preContext: [Int] = [], endSymbol: Int? = nil,
                                         _ name: String) {
        var s = wide(c)
        if let endSymbol { (s.endSymbol, s.endWeight) = (endSymbol, 0.7) }
        let full = s.decode(c.logProbs, languageModel: lm, preContext: preContext, maxResults: maxResults)
        expectMatch(full, bruteForce(c, search: s, languageModel: lm, preContext: preContext), name)
        // symbolsPerFrame: a cap of each frame's plausible count changes nothing; a smaller cap keeps
        // each frame's most likely symbols, as the brute force over those alone.
        var capped = s
        capped.symbolsPerFrame = c.maxPlausible
        #expect(capped.decode(c.logProbs, languageModel: lm, preContext: preContext, maxResults: maxResults) == full, "\(name)")
        for cap in 1..<c.maxPlausible {
            capped.symbolsPerFrame = cap
            expectMatch(capped.decode(c.logProbs, languageModel: lm, preContext: preContext, maxResults: maxResults),
                        bruteForce(c, search: s, languageModel: lm, preContext: preContext, cap: cap), "\(name), cap \(cap)")
        }
        // A higher floor: only the symbols above it are tried (a frame with none: its most likely one).
        for high: Float in [-1, -2.5] {
            var h = wide(c, floor: high)
            (h.endSymbol, h.endWeight) = (s.endSymbol, s.endWeight)
            expectMatch(h.decode(c.logProbs, languageModel: lm, preContext: preContext, maxResults: maxResults),
                        bruteForce(c, search: h, languageModel: lm, preContext: preContext), "\(name), floor \(high)")
        }
    }

    @Test("3,000 classes, no language model: the wide beam's best 10 and their scores are the brute force's", arguments: 0..<30 as Range<UInt64>)
    func noLanguageModel(seed: UInt64) {
        var g = SplitMix(seed: seed)
        let pool = distinct((0..<5).map { _ in Int.random(in: 1..<3_000, using: &g) })
        let c = Self.makeCase(&g, classes: 3_000, pool: pool)
        let none: CharacterNgramModel? = nil
        Self.check(c, languageModel: none, "seed \(seed)")
    }

    @Test("3,000 classes, a trigram model with backoff over all of them: the same, with pre-context and end term",
          arguments: 0..<30 as Range<UInt64>)
    func ngramModel(seed: UInt64) {
        var g = SplitMix(seed: 1_000 + seed)
        let pool = distinct((0..<5).map { _ in Int.random(in: 1..<3_000, using: &g) })
        let lm = Self.trigramModel(classes: 3_000, pool: pool, &g)
        let c = Self.makeCase(&g, classes: 3_000, pool: pool)
        let pre = (0..<Int.random(in: 0...2, using: &g)).map { _ in pool.randomElement(using: &g)! }
        Self.check(c, languageModel: lm, preContext: pre, endSymbol: seed % 2 == 0 ? pool[0] : nil, "seed \(seed)")
    }

    /// `lm2-cjk.bin` (a zh-Hant INKLM2 model of 6,414 characters, added with the CJK language models).
    static let cjkLM = Fixtures.url("lm2-cjk.bin")

    @Test("11,202 classes (the CJK head's size), lm2-cjk.bin bound to them: the same",
          .enabled(if: FileManager.default.fileExists(atPath: cjkLM.path), "no lm2-cjk.bin fixture"),
          arguments: 0..<12 as Range<UInt64>)
    func cjkLanguageModel(seed: UInt64) throws {
        let raw = try CharacterNgramModel(contentsOf: Self.cjkLM)
        let alphabet = try #require(raw.alphabet)
        // The LM's characters, then private-use characters it does not know, up to 11,201 labels.
        let labels = alphabet + (0..<(11_201 - alphabet.count)).map { String(UnicodeScalar(0xE000 + $0)!) }
        let lm = raw.bound(toLabels: labels)
        var classOf: [String: Int] = [:]
        for (i, l) in labels.enumerated() { classOf[l] = i + 1 }
        var g = SplitMix(seed: 2_000 + seed)
        // A pool with n-grams the LM knows ("我們今天去學校", 我們 "we", 學校 "school"), random characters
        // and one unknown class (which scores the unknown log-probability and empties the context).
        let sentence = try ["我", "們", "今", "天", "去", "學", "校"].map { try #require(classOf[$0]) }
        let start = Int.random(in: 0..<(sentence.count - 2), using: &g)
        let pool = Array(sentence[start..<(start + 3)]) + [Int.random(in: 1...alphabet.count, using: &g),
                                                           Int.random(in: (alphabet.count + 1)...11_201, using: &g)]
        let c = Self.makeCase(&g, classes: 11_202, pool: distinct(pool))
        let pre = seed % 3 == 0 ? [] : [sentence[max(0, start - 1)]]
        Self.check(c, languageModel: lm, preContext: pre, endSymbol: seed % 2 == 0 ? classOf["。"] : nil, "seed \(seed)")
    }

    @Test("the brute force itself: a hand-computed case, and every path counted once")
    func bruteForceReference() {
        // Two frames of P(a) = 0.4, P(blank) = 0.6 (DecoderTests.sumsAlignments): P("") = 0.36,
        // P("a") = 0.4·0.6 + 0.6·0.4 + 0.4·0.4 = 0.64 (the path "a a" collapses to "a").
        let lp = [logf(0.6), logf(0.4)]
        let c = Case(logProbs: FeatureMatrix(rows: 2, columns: 2, values: lp + lp), plausible: [[(1, lp[1])], [(1, lp[1])]],
                     blank: [lp[0], lp[0]])
        let reference = Self.acoustic(c)
        #expect(reference.count == 2)
        #expect(abs(reference[[]]! - log(0.36)) < 1e-6 && abs(reference[[1]]! - log(0.64)) < 1e-6)
        // Random cases: the label sequences' probabilities sum to the mass of all paths.
        for seed in 0..<20 as Range<UInt64> {
            var g = SplitMix(seed: 500 + seed)
            let c = Self.makeCase(&g, classes: 3_000, pool: [7, 8, 9])
            let total = Self.acoustic(c).values.reduce(-Double.infinity) { Self.logAddExp($0, $1) }
            let mass = (0..<c.plausible.count).reduce(0.0) { acc, t in
                acc + log(exp(Double(c.blank[t])) + c.plausible[t].reduce(0.0) { $0 + exp(Double($1.lp)) })
            }
            #expect(abs(total - mass) < 1e-9, "seed \(seed)")
        }
    }

    @Test("a beam with room to spare returns only label sequences that have a path (no score of −∞)")
    func noImpossibleHypotheses() {
        // Two frames of "a": "a a" needs a blank between the two a's, which these frames cannot give
        // without a third; the search used to make the prefix [a, a] with pb = pnb = −∞ and return it.
        let lp = frames([[0.6, 0.4, 0, 0], [0.6, 0.4, 0, 0]])
        let none: CharacterNgramModel? = nil
        let got = CTCPrefixBeamSearch(beamWidth: 10).decode(lp, languageModel: none, maxResults: 10)
        #expect(got.map(\.symbols) == [[1], []])
        #expect(got.allSatisfy { $0.score.isFinite })
    }

    @Test("the frame scans: the AVX-512 kernels find the same classes and best class as the portable ones and as Swift (NaN never wins)")
    func frameScan() {
        var g = SplitMix(seed: 5)
        for n in [0, 1, 15, 16, 17, 31, 33, 100, 11_202] {
            let x: [Float] = (0..<n).map { _ in
                switch Int.random(in: 0..<20, using: &g) {
                case 0: return .nan
                case 1: return -.infinity
                case 2: return -9  // exactly the floor: not above it
                default: return Float.random(in: -20 ... 0, using: &g)
                }
            }
            for floor: Float in [-9, -.infinity, 0, .nan] {
                let expected = x.indices.filter { x[$0] > floor }.map(Int32.init)
                var portable = [Int32](repeating: -1, count: n + 16), vector = portable
                let p = Int(ink_indices_above(x, Int32(n), floor, &portable))
                #expect(Array(portable.prefix(p)) == expected, "n \(n), floor \(floor)")
                if CTCPrefixBeamSearch.vectorScan {
                    let v = Int(ink_indices_above_avx512(x, Int32(n), floor, &vector))
                    #expect(Array(vector.prefix(v)) == expected, "n \(n), floor \(floor)")
                }
            }
            // The first most likely index other than `skip` (ties to the first; none above −∞: −1).
            var ties = x
            if n > 40 { ties[7] = 1; ties[n - 3] = 1 }  // a tie: the first wins
            for values in [x, ties, [Float](repeating: -.infinity, count: n), [Float](repeating: .nan, count: n)] {
                for skip in Set([0, 7, n - 3, -1]) {
                    var expected = -1, best = -Float.infinity
                    for i in values.indices where i != skip && values[i] > best { (best, expected) = (values[i], i) }
                    #expect(Int(ink_first_max_index(values, Int32(n), Int32(skip))) == expected, "n \(n), skip \(skip)")
                    if CTCPrefixBeamSearch.vectorScan {
                        #expect(Int(ink_first_max_index_avx512(values, Int32(n), Int32(skip))) == expected, "n \(n), skip \(skip)")
                    }
                }
            }
        }
    }

    @Test("the finiteness check of a network's output: any infinity or NaN, anywhere in thousands of values")
    func allFinite() {
        var x = (0..<11_203).map { Float($0 % 97) * -0.25 }
        x[5] = .greatestFiniteMagnitude
        x[6] = -.greatestFiniteMagnitude
        x[7] = .leastNonzeroMagnitude
        #expect(ink_all_finite(x, x.count) == 1)
        #expect(ink_all_finite(x, 0) == 1)
        for bad: Float in [.infinity, -.infinity, .nan, -.nan, .signalingNaN] {
            for i in [0, 15, 16, 11_199, 11_202] {
                var y = x
                y[i] = bad
                #expect(ink_all_finite(y, y.count) == 0, "\(bad) at \(i)")
                #expect(ink_all_finite(y, i) == 1, "only before \(i)")
            }
        }
    }

    /// A trigram model with backoff over `classes` classes (every class a unigram; bigrams and trigrams
    /// among the start of text and `pool`), built as the file readers build one.
    static func trigramModel(classes C: Int, pool: [Int], _ g: inout SplitMix) -> CharacterNgramModel {
        let bits = CharacterNgramTables.keyBits(symbolCount: C)
        func random(_ r: ClosedRange<Float>) -> Float { Float.random(in: r, using: &g) }
        var orders: [[(key: UInt64, lp: Float, bo: Float)]] = [[], [], []]
        for s in 0..<C {
            orders[0].append((UInt64(s), pool.contains(s) ? random(-4 ... -1) : random(-12 ... -6), random(-1.5 ... 0)))
        }
        let contexts = [0] + pool
        var bigrams: [(Int, Int)] = []
        for a in contexts { for b in pool where Bool.random(using: &g) {
            bigrams.append((a, b))
            orders[1].append((UInt64(a) << bits | UInt64(b), random(-3 ... -0.1), random(-1 ... 0)))
        } }
        for (a, b) in bigrams { for c in pool where Bool.random(using: &g) {
            orders[2].append(((UInt64(a) << bits | UInt64(b)) << bits | UInt64(c), random(-2 ... -0.05), 0))
        } }
        for i in orders.indices { orders[i].sort { $0.key < $1.key } }
        let tables = CharacterNgramTables(order: 3, symbolCount: C, bits: bits, alphabet: nil, unknownLogProbability: -20,
                                          keys: orders.map { $0.map(\.key) },
                                          logProbs: orders.map { LMValues(floats: $0.map(\.lp)) },
                                          logBackoffs: orders.map { LMValues(floats: $0.map(\.bo)) })
        let lm = CharacterNgramModel(tables: tables)
        precondition(lm.hasPrefixProperty)
        return lm
    }
}

/// `values` without repeats, in their order (a Set's order differs from run to run).
private func distinct(_ values: [Int]) -> [Int] {
    var seen: Set<Int> = []
    return values.filter { seen.insert($0).inserted }
}
