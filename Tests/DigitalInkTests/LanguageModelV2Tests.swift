import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("INKLM2 language models read and bind to a network's labels exactly as the Python writer says")
struct LanguageModelV2Tests {
    static func models() throws -> [[String: Any]] {
        try Fixtures.json("lm2-golden.json")["models"] as! [[String: Any]]
    }

    static func load(_ m: [String: Any]) throws -> CharacterNgramModel {
        try CharacterNgramModel(contentsOf: Fixtures.url(m["file"] as! String)).bound(toLabels: m["labels"] as! [String])
    }

    @Test("header, alphabet and unknown-symbol log-probability")
    func header() throws {
        for m in try Self.models() {
            let lm = try CharacterNgramModel(contentsOf: Fixtures.url(m["file"] as! String))
            #expect(lm.order == m["order"] as! Int)
            #expect(lm.symbolCount == m["symbols"] as! Int)
            #expect(lm.alphabet?.joined() == m["alphabet"] as? String)
            #expect(abs(lm.unknownLogProbability - (m["unknownLogProb"] as! NSNumber).floatValue) < 1e-6)
        }
    }

    @Test("golden queries over class ids within 1e-4, unknown labels included")
    func golden() throws {
        for m in try Self.models() {
            let lm = try Self.load(m)
            let queries = m["queries"] as! [[String: Any]]
            #expect(queries.count >= 20)
            LanguageModelGolden.checkQueries(lm, queries, file: m["file"] as! String)
        }
    }

    @Test("text scores from a pre-context match")
    func scoreText() throws {
        for m in try Self.models() {
            LanguageModelGolden.checkScoreText(try Self.load(m), labels: m["labels"] as! [String], items: m["scoreText"] as! [Any],
                                               file: m["file"] as! String)
        }
    }

    @Test("an unbound INKLM2 model scores its own symbol ids; those outside are unknown")
    func unbound() throws {
        let m = try Self.models()[1]
        let lm = try CharacterNgramModel(contentsOf: Fixtures.url(m["file"] as! String))
        #expect(lm.score(lm.symbolCount, after: lm.startState(preContext: [])).logProbability == lm.unknownLogProbability)
        #expect(lm.score(0, after: lm.startState(preContext: [])).logProbability == lm.unknownLogProbability)
        let t = lm.alphabet!.firstIndex(of: "t")! + 1
        #expect(lm.score(t, after: lm.startState(preContext: [])).logProbability > -5)
        #expect(lm.knownLabelCount(["t", "h", "\u{0460}"]) == 2)
    }

    @Test("every truncation and a changed byte anywhere is a typed error or a valid model, never a crash")
    func damaged() throws {
        for m in try Self.models() {
            let data = try Data(contentsOf: Fixtures.url(m["file"] as! String))
            for cut in stride(from: 0, to: data.count, by: 7) {
                #expect(throws: DigitalInkError.self) { try CharacterNgramModel(data: data.prefix(cut)) }
            }
            var bytes = [UInt8](data)
            for i in stride(from: 8, to: bytes.count, by: 3) {
                let saved = bytes[i]
                for v: UInt8 in [0, 0xFF, saved &+ 1] {
                    bytes[i] = v
                    if let lm = try? CharacterNgramModel(data: Data(bytes)) {
                        _ = lm.score(1, after: lm.startState(preContext: [1, 2, 3]))
                    }
                }
                bytes[i] = saved
            }
        }
    }

    @Test("a model directory with an INKLM2 model whose size differs from the network's loads, bound to its labels")
    func loadsInModelDirectory() throws {
        let dir = try makeTinyModelDirectory { c in
            c["decoder"] = ["languageModel": "lm.bin", "lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4]
        }
        try FileManager.default.copyItem(at: Fixtures.url("lm2-small.bin"), to: dir.appendingPathComponent("lm.bin"))
        let model = try LoadedModel(directory: dir)
        let lm = try #require(model.languageModel)
        // Labels a, b, c, d, " ", e: all in the small LM's alphabet.
        #expect(lm.knownLabelCount(model.configuration.labels) == 6)
        let a = lm.score(1, after: lm.startState(preContext: [])).logProbability
        #expect(a < 0 && a > lm.unknownLogProbability)
    }

    @Test("malformed headers are typed errors naming the problem")
    func malformed() throws {
        let good = [UInt8](try Data(contentsOf: Fixtures.url("lm2-small.bin")))
        func patched(_ offset: Int, _ value: [UInt8]) -> Data {
            var b = good
            b.replaceSubrange(offset..<offset + value.count, with: value)
            return Data(b)
        }
        let cases: [(Data, String)] = [
            (patched(8, [8, 0, 0, 0]), "order"),            // order 8
            (patched(12, [1, 0, 0, 0]), "symbol count"),    // one symbol
            (patched(16, [0, 0, 0xC0, 0x7F]), "unknown"),   // NaN
            (patched(16, [0, 0, 0x80, 0x3F]), "unknown"),   // +1
            (patched(20, [0]), "symbol 1"),                 // empty first symbol
            (Data(good + [0]), "unexpected bytes"),
        ]
        for (data, reason) in cases {
            do { _ = try CharacterNgramModel(data: data); Issue.record("accepted: \(reason)") } catch {
                guard case .modelCorrupt(_, let r) = error else { Issue.record("\(error)"); continue }
                #expect(r.contains(reason), "\(r) should mention \(reason)")
            }
        }
    }

    @Test("a lookup with its state's shared backoff weights is the plain lookup, bit for bit (the decoder's path)")
    func sharedBackoffLookup() throws {
        var models: [(String, CharacterNgramModel)] = [("lm-small.bin", try CharacterNgramModel(contentsOf: Fixtures.url("lm-small.bin")))]
        for language in ["en-US", "bn", "th", "ja"] {
            models.append((language, try CharacterNgramModel(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("\(language)/lm.bin"))))
        }
        var rng = SystemRandomNumberGenerator()
        for (name, lm) in models {
            var compared = 0, deep = 0
            for walk in 0..<30 {
                var state = lm.startState(preContext: [])
                for _ in 0..<25 {
                    let shared = lm.shared(in: state)
                    // Every symbol after this state (unknown ones included), as the decoder scores siblings.
                    var next: CharacterNgramModel.State?
                    for symbol in stride(from: 0, through: lm.symbolCount, by: max(1, lm.symbolCount / 97)) {
                        let plain = lm.score(symbol, after: state)
                        let fast = lm.score(symbol, after: state, shared: shared)
                        #expect(fast.logProbability.bitPattern == plain.logProbability.bitPattern, "\(name) symbol \(symbol)")
                        #expect(fast.next == plain.next, "\(name) symbol \(symbol)")
                        compared += 1
                        if next == nil || Bool.random(using: &rng) && plain.logProbability > -6 { next = plain.next }
                    }
                    // Half the walks follow likely symbols, so that long contexts are stored.
                    state = walk % 2 == 0 ? next! : lm.score(Int.random(in: 1..<lm.symbolCount, using: &rng), after: state).next
                    if state.context >= 2 { deep += 1 }
                }
            }
            #expect(compared > 30 * 25 * 90, "\(name)")
            #expect(deep > 0, "\(name): no state with a stored context of 2 symbols")
        }
    }

    @Test("the shipped LMs have the prefix property, and lookups that skip unstored contexts give the full search's values")
    func prefixPropertyFastPath() throws {
        for language in ["en-US", "de", "pl", "tr"] {
            let lm = try CharacterNgramModel(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("\(language)/lm.bin"))
            #expect(lm.hasPrefixProperty, "\(language)")
            // Random texts over the LM's symbols, scored symbol by symbol: the fast path (score) against
            // the search from the top order with a state that knows nothing (context == length).
            var rng = SystemRandomNumberGenerator()
            var compared = 0
            for _ in 0..<200 {
                var state = lm.startState(preContext: [])
                for _ in 0..<30 {
                    let symbol = Int.random(in: 1..<lm.symbolCount, using: &rng)
                    let fast = lm.score(symbol, after: state)
                    let full = lm.logProbability(symbol, CharacterNgramModel.State(packed: state.packed, length: state.length))
                    #expect(fast.logProbability == full)
                    #expect(fast.next.packed == lm.score(symbol, after: CharacterNgramModel.State(packed: state.packed, length: state.length)).next.packed)
                    state = fast.next
                    compared += 1
                }
            }
            #expect(compared == 6000)
            // And running text, where long contexts are stored.
            let alphabet = try #require(lm.alphabet)
            let text = "The quick brown fox jumps over the lazy dog. Der schnelle braune Fuchs springt über den faulen Hund, and then it was time to go home."
            var state = lm.startState(preContext: [])
            for ch in text {
                guard let k = alphabet.firstIndex(of: String(ch)) else { continue }
                let fast = lm.score(k + 1, after: state)
                #expect(fast.logProbability == lm.logProbability(k + 1, CharacterNgramModel.State(packed: state.packed, length: state.length)))
                state = fast.next
            }
        }
    }

    /// A hand-written INKLM2 file of order 2 over BOS, "a", "b": order 1 with a log-probability and a backoff
    /// codebook of one value each; order 2 the children `childCounts` (one LEB128 count per order-1 entry)
    /// with `symbols` and log-probability `codes` into a codebook of `bookSize` values.
    static func handWritten(childCounts: [UInt8] = [0, 2, 0], symbols: [UInt8] = [1, 2], codes: [UInt8] = [0, 0],
                            bookSize: UInt32 = 1) -> Data {
        var b = [UInt8]("INKLM2\0\0".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { b += $0 } }
        func f32(_ v: Float) { u32(v.bitPattern) }
        u32(2); u32(3); f32(-20)            // order, symbols (BOS included), unknown-symbol log-probability
        b += [1] + Array("a".utf8) + [1] + Array("b".utf8)
        u32(3); b += [1, 1, 0, 0]           // order 1: 3 entries, 1-byte codes for both, reserved
        u32(1); f32(-1.0); u32(1); f32(-0.25)
        b += [0, 0, 0, 0, 0, 0]             // log-probability and backoff codes
        u32(UInt32(symbols.count)); b += [1, 0, 0, 0]  // order 2: no backoffs
        u32(bookSize); for i in 0..<bookSize { f32(-0.5 - Float(i)) }
        b += childCounts + symbols + codes
        return Data(b)
    }

    @Test("a hand-written file reads as written; children out of order, counts that do not add up and codes outside their codebook are typed errors")
    func handWrittenTrieLevels() throws {
        let lm = try CharacterNgramModel(data: Self.handWritten())
        #expect(lm.order == 2 && lm.symbolCount == 3 && lm.alphabet == ["a", "b"])
        #expect(lm.hasPrefixProperty)
        let afterA = lm.startState(preContext: [1])
        #expect(lm.score(1, after: afterA).logProbability == -0.5)   // "a a" is stored
        #expect(lm.score(2, after: afterA).logProbability == -0.5)   // "a b" is stored
        let afterB = lm.startState(preContext: [2])
        #expect(lm.score(1, after: afterB).logProbability == -1.25)  // backoff of "b" + unigram "a"
        let cases: [(Data, String)] = [
            (Self.handWritten(symbols: [2, 1]), "not ascending"),
            (Self.handWritten(symbols: [1, 3]), "not ascending"),          // symbol 3 of 3: out of range
            (Self.handWritten(childCounts: [0, 1, 0], symbols: [1, 2]), "child counts sum"),
            (Self.handWritten(childCounts: [0, 3, 0], symbols: [1, 2]), "children"),
            (Self.handWritten(childCounts: [0, 0x81, 0x80, 0x80], symbols: [1, 2]), "longer than 3 bytes"),
            (Self.handWritten(codes: [0, 1]), "outside its codebook"),
            (Self.handWritten(codes: [0, 2], bookSize: 2), "entry 1: log-probability code 2"),
        ]
        for (data, reason) in cases {
            do { _ = try CharacterNgramModel(data: data); Issue.record("accepted: \(reason)") } catch {
                guard case .modelCorrupt(_, let r) = error else { Issue.record("\(error)"); continue }
                #expect(r.contains(reason), "\(r) should mention \(reason)")
            }
        }
    }
}
