import Foundation

/// CTC prefix beam search with an optional character language model as a prior.
///
/// Every prefix keeps two scores: `pb`, the log-probability of all alignments of the prefix that end
/// in a blank, and `pnb`, of those ending in its last symbol. A prefix is ranked by
///
///     log(e^pb + e^pnb) + lmWeight · log P_LM(prefix | pre-context) + insertionBonus · length
///
/// Prefixes live in a trie, so each extension is computed (and scored by the language model) once.
/// Per frame only symbols with log-probability above `symbolLogProbabilityFloor` are tried, and the
/// best `beamWidth` prefixes survive. Complexity per frame: O(beamWidth · candidates · LM lookup).
public struct CTCPrefixBeamSearch: Sendable {
    public var beamWidth: Int
    public var lmWeight: Float
    public var insertionBonus: Float
    public var symbolLogProbabilityFloor: Float
    public var blank: Int

    public init(beamWidth: Int = 16, lmWeight: Float = 0.5, insertionBonus: Float = 0, symbolLogProbabilityFloor: Float = -9, blank: Int = 0) {
        self.beamWidth = beamWidth
        self.lmWeight = lmWeight
        self.insertionBonus = insertionBonus
        self.symbolLogProbabilityFloor = symbolLogProbabilityFloor
        self.blank = blank
    }

    /// One decoded hypothesis: symbol ids and its score (natural-log units, higher is better).
    public struct Hypothesis: Sendable, Hashable {
        public var symbols: [Int]
        public var score: Float
    }

    /// Decodes per-frame log-probabilities (T × C). `leadingSymbol`, when given, may be prepended to
    /// the text at no acoustic cost, scored by the language model alone (a space after a pre-context
    /// that ends inside a line). Returns at most `maxResults` hypotheses, best first.
    public func decode<LM: LanguageModel>(_ logProbs: FeatureMatrix, languageModel: LM?, preContext: [Int] = [],
                                          leadingSymbol: Int? = nil, maxResults: Int) -> [Hypothesis] {
        let C = logProbs.columns
        var trie = _PrefixTrie<LM.State>(rootState: languageModel?.startState(preContext: preContext))
        func extend(_ node: Int, _ symbol: Int) -> Int {
            trie.child(node, symbol) { state in
                guard let lm = languageModel, let state else { return (0, nil) }
                let r = lm.score(symbol, after: state)
                return (r.logProbability, r.next)
            }
        }
        func rank(_ node: Int, _ pb: Float, _ pnb: Float) -> Float {
            _logAddExp(pb, pnb) + lmWeight * trie.lmLogProb[node] + insertionBonus * Float(trie.length[node])
        }

        var beams: [(node: Int, pb: Float, pnb: Float)] = [(0, 0, -.infinity)]
        if let s = leadingSymbol { beams.append((extend(0, s), 0, -.infinity)) }
        let width = max(beamWidth, maxResults)
        var next: [Int: (pb: Float, pnb: Float)] = [:]
        var candidates: [Int] = []
        for t in 0..<logProbs.rows {
            let row = t * C
            candidates.removeAll(keepingCapacity: true)
            var best = 0, bestLp = -Float.infinity
            for c in 0..<C where c != blank {
                let lp = logProbs.values[row + c]
                if lp > bestLp { bestLp = lp; best = c }
                if lp > symbolLogProbabilityFloor { candidates.append(c) }
            }
            if candidates.isEmpty { candidates.append(best) }
            let lpBlank = logProbs.values[row + blank]
            next.removeAll(keepingCapacity: true)
            func add(_ node: Int, pb: Float = -.infinity, pnb: Float = -.infinity) {
                let old = next[node] ?? (-.infinity, -.infinity)
                next[node] = (_logAddExp(old.pb, pb), _logAddExp(old.pnb, pnb))
            }
            for beam in beams {
                let total = _logAddExp(beam.pb, beam.pnb)
                add(beam.node, pb: total + lpBlank)
                let last = trie.symbol[beam.node]
                for c in candidates {
                    let lp = logProbs.values[row + c]
                    if c == last {
                        add(beam.node, pnb: beam.pnb + lp)
                        add(extend(beam.node, c), pnb: beam.pb + lp)
                    } else {
                        add(extend(beam.node, c), pnb: total + lp)
                    }
                }
            }
            var scored = next.map { (node: $0.key, pb: $0.value.pb, pnb: $0.value.pnb, rank: rank($0.key, $0.value.pb, $0.value.pnb)) }
            scored.sort { $0.rank > $1.rank || ($0.rank == $1.rank && $0.node < $1.node) }
            beams = scored.prefix(width).map { ($0.node, $0.pb, $0.pnb) }
        }
        var results = beams.map { Hypothesis(symbols: trie.symbols(of: $0.node), score: rank($0.node, $0.pb, $0.pnb)) }
        results.sort { $0.score > $1.score }
        return Array(results.prefix(maxResults))
    }
}

/// The prefixes of a beam search as a trie: node 0 is the empty prefix. Internal.
struct _PrefixTrie<State> {
    var parent: [Int] = [-1]
    var symbol: [Int] = [-1]
    var length: [Int] = [0]
    var lmLogProb: [Float] = [0]
    var lmState: [State?]
    var children: [Int: Int] = [:]

    init(rootState: State?) { lmState = [rootState] }

    mutating func child(_ node: Int, _ s: Int, score: (State?) -> (Float, State?)) -> Int {
        let key = node << 9 | s
        if let c = children[key] { return c }
        let (lp, st) = score(lmState[node])
        let id = parent.count
        parent.append(node); symbol.append(s); length.append(length[node] + 1)
        lmLogProb.append(lmLogProb[node] + lp); lmState.append(st)
        children[key] = id
        return id
    }

    func symbols(of node: Int) -> [Int] {
        var out: [Int] = []
        var n = node
        while n > 0 { out.append(symbol[n]); n = parent[n] }
        return out.reversed()
    }
}

@inline(__always)
func _logAddExp(_ a: Float, _ b: Float) -> Float {
    if a == -.infinity { return b }
    if b == -.infinity { return a }
    return a > b ? a + log1pf(expf(b - a)) : b + log1pf(expf(a - b))
}
