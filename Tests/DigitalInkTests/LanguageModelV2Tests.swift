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
}
