import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Recognition hints: a vocabulary, boosted or strict")
struct VocabularyHintTests {
    static func recognizer(_ vocabulary: RecognitionVocabulary?, maxResults: Int = 10, beamThreshold: Float? = nil) -> DigitalInkRecognizer {
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.vocabulary = vocabulary
        options.decoder.beamThreshold = beamThreshold
        options.maxResultCount = maxResults
        return DigitalInkRecognizer(options: options)
    }

    static let commands = ["open", "close", "save as", "hello there", "hello"]

    @Test("a strict vocabulary never returns anything else, whatever the ink",
          arguments: ["hello.json", "line.json", "digits.json", "argument.json", "there.json"])
    func strictOnly(_ name: String) async throws {
        let vocabulary = try RecognitionVocabulary(Self.commands, strict: true)
        for pre in ["", "say"] {  // after "say" a candidate may start with the space that separates words
            let result = try await Self.recognizer(vocabulary, maxResults: 20)
                .recognize(try sample(name).ink, context: RecognitionContext(preContext: pre))
            #expect(!result.candidates.isEmpty, "\(name): a strict vocabulary still answers with its closest entries")
            for c in result.candidates {
                let text = pre.isEmpty ? c.text : String(c.text.drop { $0 == " " })
                #expect(Self.commands.contains(text), "\(name) after \"\(pre)\": \(c.text.debugDescription)")
            }
        }
        let hello = try await Self.recognizer(vocabulary).recognize(try sample("hello.json").ink)
        #expect(hello.best?.text == "hello")
        let there = try await Self.recognizer(try RecognitionVocabulary(["where", "there", "three"], strict: true))
            .recognize(try sample("there.json").ink)
        #expect(there.best?.text == "there")
    }

    @Test("a boosted vocabulary word wins over a close language-model word; an unrelated vocabulary changes nothing")
    func boost() async throws {
        let ink = try sample("hello.json").ink
        let plain = try await Self.recognizer(nil).recognize(ink)
        #expect(plain.best?.text == "hello")
        #expect(plain.candidates.contains { $0.text == "hellor" })  // a close reading the LM ranks lower
        let boosted = try await Self.recognizer(try RecognitionVocabulary(["Hellman", "hellor"])).recognize(ink)
        #expect(boosted.best?.text == "hellor")
        // A vocabulary turns the beam threshold off (its bonus makes ranks during the search differ from
        // the final scores): compared with the plain search without the threshold, it changes nothing.
        let unrelated = try await Self.recognizer(try RecognitionVocabulary(["zebra", "quartz", "hellish"])).recognize(ink)
        let full = try await Self.recognizer(nil, beamThreshold: .infinity).recognize(ink)
        #expect(unrelated.candidates.map(\.text) == full.candidates.map(\.text))
        #expect(unrelated.candidates.map(\.score) == full.candidates.map(\.score))
        // The threshold keeps the texts of the plain search here; its scores can lose a little of the
        // mass of alignments that were pruned.
        #expect(plain.candidates.map(\.text) == full.candidates.map(\.text))
        // Weight 0 is the plain search.
        let zero = try await Self.recognizer(try RecognitionVocabulary(["hellor"], weight: 0)).recognize(ink)
        #expect(zero.candidates.map(\.text) == plain.candidates.map(\.text))
    }

    @Test("a line still reads with a vocabulary of some of its words; matched words keep their bonus")
    func line() async throws {
        let ink = try sample("line.json").ink
        let plain = try await Self.recognizer(nil, maxResults: 1).recognize(ink)
        let words = plain.best!.text.split(separator: " ").map(String.init)
        let boosted = try await Self.recognizer(try RecognitionVocabulary(words.prefix(3)), maxResults: 1).recognize(ink)
        #expect(boosted.best?.text == plain.best?.text)
        #expect(boosted.best!.score > plain.best!.score)
    }

    @Test("invalid vocabularies are typed errors")
    func invalid() throws {
        #expect(throws: DigitalInkError.invalidOption(name: "vocabulary", reason: "no entries")) { try RecognitionVocabulary([String]()) }
        #expect(throws: DigitalInkError.invalidOption(name: "vocabulary", reason: "an entry is empty")) { try RecognitionVocabulary(["a", ""]) }
        #expect(throws: DigitalInkError.self) { try RecognitionVocabulary([String(repeating: "x", count: 257)]) }
        #expect(throws: DigitalInkError.invalidOption(name: "vocabulary.weight", reason: "nan is outside 0...20")) {
            try RecognitionVocabulary(["a"], weight: .nan)
        }
        #expect(throws: DigitalInkError.self) { try RecognitionVocabulary(["a"], weight: -1) }
        #expect(try RecognitionVocabulary(["a", "b", "a"]).entries == ["a", "b"])
    }
}

@Suite("The vocabulary inside the beam search")
struct VocabularyBeamSearchTests {
    /// Frames that say "a" then blank (classes: 0 blank, 1 "a", 2 "b", 3 " ").
    static func frames(_ rows: [[Float]]) -> FeatureMatrix {
        FeatureMatrix(rows: rows.count, columns: rows[0].count, values: rows.flatMap { $0.map { logf($0) } })
    }
    static let labels = ["", "a", "b", " "]
    static func walk(_ entries: [String], weight: Float = 1, strict: Bool = false) throws -> _VocabularyWalk {
        try RecognitionVocabulary(entries, weight: weight, strict: strict).walk(labels: labels)
    }

    @Test("the bonus of a word left incomplete is taken back at the end")
    func incompleteWordKeepsNoBonus() throws {
        let m = Self.frames([[0.1, 0.8, 0.05, 0.05], [0.9, 0.04, 0.03, 0.03]])
        let search = CTCPrefixBeamSearch(beamWidth: 8, symbolLogProbabilityFloor: -20)
        let plain = search.decode(m, languageModel: nil as CharacterNgramModel?, maxResults: 3)
        let boosted = search.decode(m, languageModel: nil as CharacterNgramModel?, maxResults: 3, vocabulary: try Self.walk(["ab"]))
        #expect(plain.first?.symbols == [1])
        #expect(boosted.first?.symbols == [1])
        #expect(boosted.first?.score == plain.first?.score)  // "a" is only the start of "ab"
        let complete = search.decode(m, languageModel: nil as CharacterNgramModel?, maxResults: 3, vocabulary: try Self.walk(["a"]))
        #expect(abs(complete.first!.score - (plain.first!.score + 1)) < 1e-4)
    }

    @Test("strict: only entries, phrases through their spaces, and the closest entry when the ink says otherwise")
    func strict() throws {
        // The ink says "b a" (b, space, a).
        let m = Self.frames([[0.1, 0.05, 0.8, 0.05], [0.1, 0.05, 0.05, 0.8], [0.1, 0.8, 0.05, 0.05]])
        let search = CTCPrefixBeamSearch(beamWidth: 8, symbolLogProbabilityFloor: -.infinity)
        let phrase = search.decode(m, languageModel: nil as CharacterNgramModel?, maxResults: 5, vocabulary: try Self.walk(["b a", "ab"], strict: true))
        #expect(phrase.map(\.symbols).allSatisfy { $0 == [2, 3, 1] || $0 == [1, 2] })
        #expect(phrase.first?.symbols == [2, 3, 1])
        let other = search.decode(m, languageModel: nil as CharacterNgramModel?, maxResults: 5, vocabulary: try Self.walk(["ab", "aa"], strict: true))
        #expect(!other.isEmpty)
        #expect(other.map(\.symbols).allSatisfy { $0 == [1, 2] || $0 == [1, 1] })
    }
}

@Suite("Post-context: the text after the insertion point")
struct PostContextTests {
    @Test("the language model scores the post-context after each hypothesis: it decides between equal readings")
    func decides() {
        // Classes 0 blank, 1 "a", 2 "b", 3 " ". The ink is "a" or "b", equally; "b" is followed by " "
        // far more often than "a" is.
        let lp = frames([[0.1, 0.45, 0.45, 0.0001], [0.9, 0.05, 0.05, 0.0001]])
        let lm = TableBigramModel(table: [0: [1: -1, 2: -1.01], 1: [3: -6], 2: [3: -0.5]])
        let search = CTCPrefixBeamSearch(beamWidth: 8, lmWeight: 1, symbolLogProbabilityFloor: -20)
        #expect(search.decode(lp, languageModel: lm, maxResults: 2).first?.symbols == [1])
        let after = search.decode(lp, languageModel: lm, maxResults: 2, postContext: [3])
        #expect(after.first?.symbols == [2])
        let plain = search.decode(lp, languageModel: lm, maxResults: 2)
        #expect(abs(after.first!.score - (plain.first { $0.symbols == [2] }!.score - 0.5)) < 1e-4)
    }

    @Test("the recognizer and the CLI pass the post-context; an empty one changes nothing")
    func api() async throws {
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        let ink = try sample("hello.json").ink
        let plain = try await recognizer.recognize(ink)
        let empty = try await recognizer.recognize(ink, context: RecognitionContext(postContext: ""))
        #expect(plain == empty)
        let followed = try await recognizer.recognize(ink, context: RecognitionContext(postContext: " world"))
        #expect(followed.best?.text == "hello")
        #expect(followed.candidates.map(\.score) != plain.candidates.map(\.score))
        let decoded = try JSONDecoder().decode(RecognitionContext.self, from: Data(#"{"preContext": "a"}"#.utf8))
        #expect(decoded == RecognitionContext(preContext: "a"))
        let r = try await CLI.run(["recognize", "Samples/hello.json", "--post-context", " world", "--model-directory", "Models/en-US"])
        #expect(r.status == 0 && r.stdout.hasPrefix("Samples/hello.json: hello"), "\(r.stdout) \(r.stderr)")
    }
}

@Suite("withOptions: per-call settings on one loaded model")
struct WithOptionsTests {
    @Test("a recognizer made with withOptions shares the model and applies its own hints")
    func shares() async throws {
        let base = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        try await base.load()
        let digits = base.withOptions { $0.allowedCharacters = Set("0123456789"); $0.maxResultCount = 3 }
        #expect(await digits.isLoaded)  // no second load: the same loader
        let ink = try sample("hello.json").ink
        let d = try await digits.recognize(ink)
        #expect(d.candidates.count <= 3)
        #expect(d.candidates.allSatisfy { $0.text.allSatisfy(\.isNumber) })
        #expect(try await base.recognize(ink).best?.text == "hello")  // the original keeps its options
        #expect(base.options.allowedCharacters == nil)
    }
}
