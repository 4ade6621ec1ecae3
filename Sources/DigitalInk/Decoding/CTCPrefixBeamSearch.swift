import _InkKernels
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
///
/// After the last frame, when `endSymbol` is set, each surviving prefix also gets
/// `endWeight · log P_LM(endSymbol | prefix)`: how likely the text is to end there (with the space as
/// the end symbol, how likely its last word is complete), which an ink that ends at a word boundary
/// should be. The final hypotheses are ranked with it.
@_spi(Engine) public struct CTCPrefixBeamSearch: Sendable {
    public var beamWidth: Int
    public var lmWeight: Float
    public var insertionBonus: Float
    public var symbolLogProbabilityFloor: Float
    public var blank: Int
    /// The symbol whose language-model probability after a complete hypothesis scores its ending
    /// (nil: none); weighted by `endWeight`.
    public var endSymbol: Int?
    public var endWeight: Float
    /// Beam threshold: after each frame, prefixes ranked more than this below the best are dropped
    /// (at least `keepAtLeast` of `decode` are kept), as speech decoders prune. `.infinity`: none,
    /// the beam is always `beamWidth` wide. A prefix so far below the best is e^−threshold as likely
    /// (e^−10 ≈ 1/22,000), so easy frames keep a few prefixes and hard ones the whole beam. Not
    /// applied with a vocabulary (whose bonus makes ranks during the search differ from final scores).
    public var beamThreshold: Float
    /// The most symbols a frame may extend the prefixes with: its most likely ones above
    /// `symbolLogProbabilityFloor` (`Int.max`: all of them). A frame where the network is unsure of
    /// everything otherwise extends every beam by hundreds of classes.
    public var symbolsPerFrame: Int = .max
    /// Whether the selection of a frame's beams skips a prefix that the threshold's cut is bound to drop
    /// (below the best so far by more than `beamThreshold`, with `keepAtLeast` better ones already
    /// chosen) before scoring it with the LM. The same beams either way (`BeamThresholdTests` compares
    /// both); false only to check that. Internal.
    var skipsBelowThreshold = true

    /// Whether the per-frame scan for the symbols above the floor runs in AVX-512 (the same indices).
    static let vectorScan = ink_kernels_avx512_available() != 0

    public init(beamWidth: Int = 16, lmWeight: Float = 0.5, insertionBonus: Float = 0, symbolLogProbabilityFloor: Float = -9,
                blank: Int = 0, endSymbol: Int? = nil, endWeight: Float = 0, beamThreshold: Float = .infinity) {
        self.beamThreshold = beamThreshold
        self.beamWidth = beamWidth
        self.lmWeight = lmWeight
        self.insertionBonus = insertionBonus
        self.symbolLogProbabilityFloor = symbolLogProbabilityFloor
        self.blank = blank
        self.endSymbol = endSymbol
        self.endWeight = endWeight
    }

    /// One decoded hypothesis: symbol ids and its score (natural-log units, higher is better).
    public struct Hypothesis: Sendable, Hashable {
        public var symbols: [Int]
        public var score: Float
    }

    /// Decodes per-frame log-probabilities (T × C). `leadingSymbol`, when given, may be prepended to
    /// the text at no acoustic cost, scored by the language model alone (a space after a pre-context
    /// that ends inside a line). Returns at most `maxResults` hypotheses, best first.
    ///
    /// Per frame, the scores of the next beams are kept in arrays indexed by trie node (no hashing),
    /// and the best `max(beamWidth, maxResults)` are selected without sorting all of them.
    @_specialize(exported: false, where LM == CharacterNgramModel)
    ///
    /// `allowed`, when given, masks the symbols (one flag per class): a symbol whose flag is false is
    /// never output (a digits-only field). With no allowed symbol above the floor in a frame, the
    /// frame extends by its best allowed symbol; with none allowed at all, only blanks.
    ///
    /// `vocabulary`, when given, boosts the prefixes that spell its entries, or (strict) allows only
    /// them (see ``_VocabularyWalk``); its bonus is part of the rank and of the final score.
    ///
    /// `postContext` (symbol ids of the text after the ink), when not empty and with a language model,
    /// adds `lmWeight · log P_LM(postContext | hypothesis)` to each final hypothesis instead of the
    /// end term.
    ///
    /// `keepAtLeast` (default `maxResults`): the beam threshold never leaves fewer prefixes than this.
    public func decode<LM: LanguageModel>(_ logProbs: FeatureMatrix, languageModel: LM?, preContext: [Int] = [],
                                          leadingSymbol: Int? = nil, maxResults: Int, allowed: [Bool]? = nil,
                                          vocabulary: _VocabularyWalk? = nil, postContext: [Int] = [],
                                          keepAtLeast: Int? = nil) -> [Hypothesis] {
        let C = logProbs.columns
        precondition(C < 1 << 20, "at most 2^20 classes")
        // (No local functions that capture mutable state, and no copies of the trie or the language
        // model per step: exclusivity checks and retain/release cost more than the search itself.)
        var trie = _PrefixTrie<LM.State, LM.Shared>(rootState: languageModel?.startState(preContext: preContext), vocabulary: vocabulary,
                                         lazyLM: lmWeight >= 0, expectedNodes: logProbs.rows * 192)

        var beams: [(node: Int, pb: Float, pnb: Float)] = [(0, 0, -.infinity)]
        if let s = leadingSymbol { beams.append((trie.child(0, s, languageModel, leading: true), 0, -.infinity)) }
        let width = max(beamWidth, maxResults)
        let keep = max(1, min(keepAtLeast ?? maxResults, width))
        // No threshold with a vocabulary: its bonus is taken back from words left incomplete at the end,
        // so ranks during the search are not the final scores.
        let threshold = vocabulary == nil ? beamThreshold : .infinity
        let skip = skipsBelowThreshold && threshold < .infinity
        var blankRanks: [Float] = []
        var next = _NextBeams()
        var top: [(node: Int, pb: Float, pnb: Float, rank: Float)] = []
        top.reserveCapacity(width + 1)
        var candidates: [Int] = []
        var hasBeamChild: [Int] = []  // per node: the frame in which one of its children is a beam
        let values = logProbs.values
        var above = [Int32](repeating: 0, count: C + 16)  // a frame's classes above the floor (+16: see ink_indices_above_avx512)
        var selected: [(lp: Float, c: Int)] = []
        for t in 0..<logProbs.rows {
            let row = t * C
            candidates.removeAll(keepingCapacity: true)
            // The frame's symbols above the floor, in class order (a vectorized scan: with thousands of
            // classes, a scalar one was most of the decoding time).
            let found = values.withUnsafeBufferPointer { v in
                above.withUnsafeMutableBufferPointer { a in
                    Self.vectorScan ? Int(ink_indices_above_avx512(v.baseAddress! + row, Int32(C), symbolLogProbabilityFloor, a.baseAddress!))
                        : Int(ink_indices_above(v.baseAddress! + row, Int32(C), symbolLogProbabilityFloor, a.baseAddress!))
                }
            }
            for i in 0..<found {
                let c = Int(above[i])
                if c != blank && (allowed?[c] ?? true) { candidates.append(c) }
            }
            if candidates.isEmpty {  // none above the floor (most frames: the blank's): the most likely (allowed) symbol
                var best = -1
                if let allowed {
                    var bestLp = -Float.infinity
                    for c in 0..<C where c != blank && allowed[c] {
                        let lp = values[row + c]
                        if lp > bestLp { bestLp = lp; best = c }
                    }
                } else {
                    best = values.withUnsafeBufferPointer { v in
                        Self.vectorScan ? Int(ink_first_max_index_avx512(v.baseAddress! + row, Int32(C), Int32(blank)))
                            : Int(ink_first_max_index(v.baseAddress! + row, Int32(C), Int32(blank)))
                    }
                }
                if best >= 0 { candidates.append(best) }
            }
            if candidates.count > symbolsPerFrame {  // a flat frame: only its most likely symbols
                if symbolsPerFrame <= 64 {
                    // The same selection as the sort below, by insertion into the best so far (by
                    // log-probability, then the smaller class: classes come in ascending order, so a
                    // tie never displaces an earlier one).
                    selected.removeAll(keepingCapacity: true)
                    for c in candidates {
                        let lp = values[row + c]
                        if selected.count == symbolsPerFrame {
                            if !(lp > selected[selected.count - 1].lp) { continue }
                            selected.removeLast()
                        }
                        var i = selected.count
                        while i > 0, lp > selected[i - 1].lp { i -= 1 }
                        selected.insert((lp, c), at: i)
                    }
                    candidates.removeAll(keepingCapacity: true)
                    for s in selected { candidates.append(s.c) }
                } else {
                    candidates.sort { (values[row + $0], $1) > (values[row + $1], $0) }
                    candidates.removeLast(candidates.count - symbolsPerFrame)
                }
                candidates.sort()
            }
            let lpBlank = values[row + blank]
            // A lower bound of the rank the beam will need this frame: each of `width` beams ends the frame
            // with at least the rank of its blank path alone, so when all `width` are there, the worst
            // survivor ranks at least `floor`. A new prefix gets its score in this frame from its parent
            // alone, so one whose rank (its LM term bounded by its parent's) cannot exceed `floor` is
            // never made. Without a vocabulary (whose bonus is not known before the walk).
            // A prefix that is not a beam also gets its score from its parent alone, so it is skipped
            // likewise when its bound is below `floor`, unless its parent has a child among the beams.
            // With a beam threshold, the best blank path bounds the frame's best rank from below: a
            // prefix below it by more than the threshold is dropped at the selection, so it is not made
            // either, provided `keep` beams stay above that level (they are kept first).
            var floor = -Float.infinity
            if vocabulary == nil, lmWeight >= 0, beams.count == width || threshold < .infinity {
                blankRanks.removeAll(keepingCapacity: true)
                var worst = Float.infinity, bestRank = -Float.infinity
                for beam in beams {
                    let r = trie.rank(beam.node, pb: _logAddExp(beam.pb, beam.pnb) + lpBlank, pnb: -.infinity,
                                      lmWeight: lmWeight, insertionBonus: insertionBonus)
                    blankRanks.append(r)
                    worst = min(worst, r)
                    bestRank = max(bestRank, r)
                }
                if beams.count == width { floor = worst }
                if threshold < .infinity {
                    let level = bestRank - threshold
                    var above = 0
                    for r in blankRanks where r >= level { above += 1 }
                    if above >= keep { floor = max(floor, level) }
                }
            }
            if floor > -.infinity {
                for beam in beams {
                    let p = trie.parent(beam.node)
                    if p >= 0 {
                        while hasBeamChild.count <= p { hasBeamChild.append(-1) }
                        hasBeamChild[p] = t
                    }
                }
            }
            for beam in beams {
                let total = _logAddExp(beam.pb, beam.pnb)
                next.add(beam.node, frame: t, pb: total + lpBlank)
                let last = trie.symbol(beam.node)
                let parentLM = lmWeight * trie.lmLogProb(beam.node)
                let childBonus = insertionBonus * Float(trie.length(beam.node) + 1)
                let prunable = floor > -.infinity && (beam.node >= hasBeamChild.count || hasBeamChild[beam.node] != t)
                for c in candidates {
                    let lp = values[row + c]
                    if c == last { next.add(beam.node, frame: t, pnb: beam.pnb + lp) }
                    let base = c == last ? beam.pb : total
                    // No path: the prefix's last symbol again with no blank between (pb = −∞) makes no
                    // new prefix (it would rank −∞, and be returned where the beam has room).
                    if base == -.infinity { continue }
                    if prunable {
                        let bound = base + lp + parentLM + childBonus
                        if bound < floor { continue }
                    }
                    let child = trie.child(beam.node, c, languageModel)
                    if child < 0 { continue }  // outside a strict vocabulary
                    next.add(child, frame: t, pnb: base + lp)
                }
            }
            // The best `width` by rank, ties to the smaller node (a total order: the same beams as
            // sorting them all), kept sorted best first.
            top.removeAll(keepingCapacity: true)
            // Two passes: the prefixes already scored by the LM (mostly the beams themselves, usually the
            // strongest) first, then the new ones, so that the bound prunes most of those before a lookup.
            // (The selection is a total order, so the order of the passes does not change it.)
            for pass in 0..<2 {
            for node in next.touched where trie.lmReady(node) == (pass == 0) {
                let pb = next.pb(node), pnb = next.pnb(node)
                var r = trie.rank(node, pb: pb, pnb: pnb, lmWeight: lmWeight, insertionBonus: insertionBonus)
                if top.count == width, let worst = top.last, !(r > worst.rank || (r == worst.rank && node < worst.node)) {
                    continue  // (for a node not yet scored by the LM, r is an upper bound of its rank)
                }
                // Below the best so far by more than the threshold, with `keep` strictly better ones already
                // in: the threshold's cut below drops it whatever comes after (the best only rises, and those
                // `keep`, or better ones, stay ahead of it), so it is neither scored nor inserted.
                if skip, top.count >= keep, r < top[0].rank - threshold, top[keep - 1].rank > r {
                    continue
                }
                if !trie.lmReady(node) {  // a new prefix that may enter the beam: score it now
                    trie.scoreLM(node, languageModel)
                    r = trie.rank(node, pb: pb, pnb: pnb, lmWeight: lmWeight, insertionBonus: insertionBonus)
                    if top.count == width, let worst = top.last, !(r > worst.rank || (r == worst.rank && node < worst.node)) {
                        continue
                    }
                    if skip, top.count >= keep, r < top[0].rank - threshold, top[keep - 1].rank > r {
                        continue
                    }
                }
                var i = top.count
                while i > 0, r > top[i - 1].rank || (r == top[i - 1].rank && node < top[i - 1].node) { i -= 1 }
                top.insert((node, pb, pnb, r), at: i)
                if top.count > width { top.removeLast() }
            }
            }
            next.touched.removeAll(keepingCapacity: true)
            if threshold < .infinity, let first = top.first {
                let level = first.rank - threshold
                while top.count > keep, top[top.count - 1].rank < level { top.removeLast() }
            }
            beams = top.map { ($0.node, $0.pb, $0.pnb) }
        }
        var results: [Hypothesis] = []
        results.reserveCapacity(beams.count)
        for beam in beams {
            var score = trie.rank(beam.node, pb: beam.pb, pnb: beam.pnb, lmWeight: lmWeight, insertionBonus: insertionBonus)
            if let walk = vocabulary {  // the bonus of a word left incomplete is taken back
                guard let kept = walk.final(trie.vocab[beam.node]) else { continue }
                score += kept - trie.vocabBonus[beam.node]
            }
            if !postContext.isEmpty, let lm = languageModel, var state = trie.lmState(beam.node) {
                var lp: Float = 0
                for s in postContext {
                    let r = lm.score(s, after: state)
                    lp += r.logProbability
                    state = r.next
                }
                score += lmWeight * lp
            } else if let end = endSymbol, endWeight != 0, let lm = languageModel, let state = trie.lmState(beam.node) {
                score += endWeight * lm.score(end, after: state).logProbability
            }
            results.append(Hypothesis(symbols: trie.symbols(of: beam.node), score: score))
        }
        results.sort { $0.score > $1.score }
        return Array(results.prefix(maxResults))
    }
}

/// The prefixes of a beam search as a trie: node 0 is the empty prefix. Internal.
///
/// With `lazyLM` (a non-negative LM weight), a new prefix is not scored by the language model when it
/// is made: until ``scoreLM(_:_:)`` it carries its parent's LM log-probability, an upper bound of its
/// own (a symbol's log-probability is at most 0, and is clamped so), and so a rank that bounds its true
/// rank from above. The search scores only the prefixes whose bound could still enter the beam; most
/// extensions fall short and never cost a lookup. The beams are the same as with eager scoring.
struct _PrefixTrie<State, Shared> {
    /// One prefix: its parent node, last symbol and length (32-bit: a long line makes tens of thousands of
    /// prefixes), its LM log-probability and state, and whether those are computed (always, without `lazyLM`).
    /// (One array of nodes: one append per new prefix, where parallel arrays took six.)
    struct Node {
        var parent: Int32
        var symbol: Int32
        var length: Int32
        var lmReady: Bool
        /// Where the LM's ``LanguageModel/Shared`` part of this prefix's lookups is kept in `shared` (−1: not
        /// computed; it is, once, when the first child is scored lazily).
        var sharedIndex: Int32 = -1
        var lmLogProb: Float
        var lmState: State?
    }
    var nodes: [Node]
    var shared: [Shared] = []
    let lazyLM: Bool
    /// The vocabulary's state and rank bonus of each node (kept only with a vocabulary).
    let vocabulary: _VocabularyWalk?
    var vocab: [_VocabularyState] = [_VocabularyState()]
    var vocabBonus: [Float] = [0]
    /// Children by `node << 20 | symbol` (-1: not allowed by a strict vocabulary): open addressing, linear probing, at most
    /// three quarters full (faster than a Dictionary, whose hashing dominated the search).
    var slotKeys: [Int]
    var slotNodes: [Int32]
    var slotsUsed = 0

    /// `expectedNodes`: how many prefixes the search is likely to make (it sizes the table of children, which
    /// otherwise grows by doubling: a long ink's rehashing was a tenth of its search).
    init(rootState: State?, vocabulary: _VocabularyWalk? = nil, lazyLM: Bool = false, expectedNodes: Int = 0) {
        nodes = [Node(parent: -1, symbol: -1, length: 0, lmReady: true, lmLogProb: 0, lmState: rootState)]
        let wanted = min(max(expectedNodes, 768), 1 << 16) * 4 / 3  // (a table 3/4 full at that many)
        let size = 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
        slotKeys = [Int](repeating: -1, count: size)
        slotNodes = [Int32](repeating: 0, count: size)
        nodes.reserveCapacity(min(max(expectedNodes, 1024), 1 << 16))
        self.vocabulary = vocabulary
        self.lazyLM = lazyLM && rootState != nil
    }

    @inline(__always) func parent(_ node: Int) -> Int { Int(nodes[node].parent) }
    @inline(__always) func symbol(_ node: Int) -> Int { Int(nodes[node].symbol) }
    @inline(__always) func lmReady(_ node: Int) -> Bool { nodes[node].lmReady }
    @inline(__always) func lmLogProb(_ node: Int) -> Float { nodes[node].lmLogProb }
    @inline(__always) func length(_ node: Int) -> Int { Int(nodes[node].length) }
    @inline(__always) func lmState(_ node: Int) -> State? { nodes[node].lmState }

    /// Scores a node made lazily: its parent (a beam, so scored) gives the state.
    @inline(__always)
    mutating func scoreLM<LM: LanguageModel>(_ node: Int, _ languageModel: LM?) where LM.State == State, LM.Shared == Shared {
        guard !nodes[node].lmReady else { return }
        let p = Int(nodes[node].parent)
        if let state = nodes[p].lmState, let lm = languageModel {
            if nodes[p].sharedIndex < 0 {  // the parent's first child scored: what its siblings' lookups share
                nodes[p].sharedIndex = Int32(shared.count)
                shared.append(lm.shared(in: state))
            }
            let r = lm.score(Int(nodes[node].symbol), after: state, shared: shared[Int(nodes[p].sharedIndex)])
            nodes[node].lmLogProb = nodes[p].lmLogProb + min(r.logProbability, 0)
            nodes[node].lmState = r.next
        }
        nodes[node].lmReady = true
    }

    /// The node of prefix `node` + `s`, made (and scored by `languageModel`) if new; -1 when a strict
    /// vocabulary does not allow it. A `leading` symbol (the space after a pre-context) keeps the
    /// vocabulary's start state.
    @inline(__always)
    mutating func child<LM: LanguageModel>(_ node: Int, _ s: Int, _ languageModel: LM?, leading: Bool = false) -> Int where LM.State == State, LM.Shared == Shared {
        let key = node << 20 | s
        var i = Self.slot(key, mask: slotKeys.count - 1)
        while slotKeys[i] != -1 {
            if slotKeys[i] == key { return Int(slotNodes[i]) }
            i = (i + 1) & (slotKeys.count - 1)
        }
        var vs = _VocabularyState()
        if let walk = vocabulary {
            vs = vocab[node]
            if !leading {
                guard let v = walk.next(vs, s) else {
                    insert(key, -1, at: i)
                    return -1
                }
                vs = v
            }
        }
        var lp: Float = 0
        var st: State? = nil
        let lazy = lazyLM && !leading
        if !lazy, let state = nodes[node].lmState, let r = languageModel?.score(s, after: state) {
            (lp, st) = (min(r.logProbability, 0), r.next)
        }
        let id = nodes.count
        let p = nodes[node]
        nodes.append(Node(parent: Int32(node), symbol: Int32(s), length: p.length + 1, lmReady: !lazy,
                          lmLogProb: p.lmLogProb + lp, lmState: st))
        if let walk = vocabulary { vocab.append(vs); vocabBonus.append(walk.bonus(vs)) }
        insert(key, id, at: i)
        return id
    }

    @inline(__always)
    mutating func insert(_ key: Int, _ id: Int, at i: Int) {
        slotKeys[i] = key
        slotNodes[i] = Int32(id)
        slotsUsed += 1
        if 4 * slotsUsed > 3 * slotKeys.count { grow() }
    }

    @inline(__always)
    static func slot(_ key: Int, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    mutating func grow() {
        let oldKeys = slotKeys, oldNodes = slotNodes
        let size = 2 * oldKeys.count, mask = size - 1
        slotKeys = [Int](repeating: -1, count: size)
        slotNodes = [Int32](repeating: 0, count: size)
        for (k, n) in zip(oldKeys, oldNodes) where k != -1 {
            var i = Self.slot(k, mask: mask)
            while slotKeys[i] != -1 { i = (i + 1) & mask }
            slotKeys[i] = k
            slotNodes[i] = n
        }
    }

    /// A prefix's rank: log(e^pb + e^pnb) + lmWeight · LM log-probability + insertionBonus · length
    /// + the vocabulary's bonus.
    @inline(__always)
    func rank(_ node: Int, pb: Float, pnb: Float, lmWeight: Float, insertionBonus: Float) -> Float {
        _logAddExp(pb, pnb) + lmWeight * nodes[node].lmLogProb + insertionBonus * Float(nodes[node].length)
            + (vocabulary == nil ? 0 : vocabBonus[node])
    }

    func symbols(of node: Int) -> [Int] {
        var out: [Int] = []
        var n = node
        while n > 0 { out.append(Int(nodes[n].symbol)); n = Int(nodes[n].parent) }
        return out.reversed()
    }
}

/// The beams of the next frame while they are collected: scores per trie node (grown with the trie) and
/// the nodes touched in this frame, in order. Internal.
struct _NextBeams {
    /// A node's scores in the frame `stamp` (the frame in which it was last touched).
    struct Entry {
        var stamp: Int32
        var pb: Float
        var pnb: Float
    }
    var entries: [Entry] = []
    var touched: [Int] = []

    @inline(__always) func pb(_ node: Int) -> Float { entries[node].pb }
    @inline(__always) func pnb(_ node: Int) -> Float { entries[node].pnb }

    @inline(__always)
    mutating func add(_ node: Int, frame: Int, pb b: Float = -.infinity, pnb nb: Float = -.infinity) {
        if entries.count <= node {  // grown with the trie, at least doubling
            let n = max(node + 1, 2 * entries.count, 256) - entries.count
            entries.append(contentsOf: repeatElement(Entry(stamp: -1, pb: -.infinity, pnb: -.infinity), count: n))
        }
        let f = Int32(truncatingIfNeeded: frame)
        if entries[node].stamp != f {  // first time this frame
            entries[node] = Entry(stamp: f, pb: b, pnb: nb)
            touched.append(node)
            return
        }
        entries[node].pb = _logAddExp(entries[node].pb, b)
        entries[node].pnb = _logAddExp(entries[node].pnb, nb)
    }
}

@inline(__always)
func _logAddExp(_ a: Float, _ b: Float) -> Float {
    if a == -.infinity { return b }
    if b == -.infinity { return a }
    return a > b ? a + log1pf(expf(b - a)) : b + log1pf(expf(a - b))
}
