import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The scalars of `text`: `String`'s `==` is canonical equivalence, under which jamo and syllables
/// are equal, so the tests compare scalars.
private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

@Suite("Hangul jamo: Unicode's syllable arithmetic")
struct HangulJamoArithmeticTests {
    @Test("every one of the 11,172 syllables decomposes and composes as Foundation's NFD and NFC")
    func allSyllables() {
        var all = ""
        for value in UInt32(0xAC00)...0xD7A3 {
            let syllable = String(Unicode.Scalar(value)!)
            let nfd = syllable.decomposedStringWithCanonicalMapping
            #expect(scalars(HangulJamo.decomposed(syllable)) == scalars(nfd), "U+\(String(value, radix: 16))")
            #expect(scalars(HangulJamo.composed(nfd)) == [value], "U+\(String(value, radix: 16))")
            all += syllable
        }
        #expect(all.unicodeScalars.count == 11_172)
        let decomposed = HangulJamo.decomposed(all)
        #expect(scalars(decomposed) == scalars(all.decomposedStringWithCanonicalMapping))
        #expect(scalars(HangulJamo.composed(decomposed)) == scalars(all))
    }

    @Test("a mixed string: only the syllables change")
    func mixed() {
        let text = "한국어 OK 123"
        let decomposed = HangulJamo.decomposed(text)
        #expect(scalars(decomposed) == scalars(text.decomposedStringWithCanonicalMapping))
        #expect(decomposed.unicodeScalars.count == 8 + 7)  // 한 3, 국 3, 어 2; " OK 123" 7
        #expect(decomposed.unicodeScalars.allSatisfy { !HangulJamo.isSyllable($0) })
        #expect(scalars(HangulJamo.composed(decomposed)) == scalars(text.precomposedStringWithCanonicalMapping))
        #expect(scalars(HangulJamo.composed(decomposed)) == scalars(text))
        // Text without Hangul is returned as it is (no other normalization).
        let latin = "cafe\u{301} OK"
        #expect(scalars(HangulJamo.decomposed(latin)) == scalars(latin))
        #expect(scalars(HangulJamo.composed(latin)) == scalars(latin))
    }

    @Test("jamo that form no syllable are left as they are, as NFC leaves them")
    func strayJamo() {
        let cases: [[UInt32]] = [
            [0x1112],                  // an initial alone
            [0x1161],                  // a vowel alone
            [0x11AB],                  // a final alone
            [0x1112, 0x1112, 0x1161],  // an initial, then a syllable
            [0x1112, 0x11AB],          // an initial and a final, no vowel
            [0x1161, 0x11AB],          // a vowel and a final, no initial
            [0x41, 0x1161, 0x1112],    // Latin, a vowel, an initial
        ]
        let expected: [[UInt32]] = [[0x1112], [0x1161], [0x11AB], [0x1112, 0xD558], [0x1112, 0x11AB], [0x1161, 0x11AB],
                                    [0x41, 0x1161, 0x1112]]
        for (c, e) in zip(cases, expected) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: c.map { Unicode.Scalar($0)! })
            let text = String(view)
            #expect(scalars(HangulJamo.composed(text)) == e, "\(c)")
            #expect(scalars(HangulJamo.composed(text)) == scalars(text.precomposedStringWithCanonicalMapping), "\(c)")
        }
        // A final after a precomposed syllable without one joins it, as in NFC: 하 + ᆫ → 한.
        #expect(scalars(HangulJamo.composed("하\u{11AB}")) == [0xD55C])
    }
}

/// A hangul-jamo model without weights: its configuration, label table, a language model over its
/// jamo, and network outputs written by hand.
enum JamoFixture {
    /// The 67 modern conjoining jamo: 19 initials, 21 vowels, 27 finals.
    static let jamo: [String] = (Array(0x1100...0x1112) + Array(0x1161...0x1175) + Array(0x11A8...0x11C2))
        .map { String(Unicode.Scalar(UInt32($0))!) }
    static let labels = [" ", "A", "K", "O", "1", "2", "3"] + jamo

    static func configJSON(textForm: String? = "hangul-jamo", labels: [String] = labels) throws -> Data {
        var config: [String: Any] = [
            "formatVersion": 1, "identifier": "ko-x-jamo", "kind": "text",
            "features": ["scheme": "resampled-v2", "stepsPerLineHeight": 4],
            "network": ["weights": "weights.safetensors", "inputDim": 4, "hidden": 8, "layers": 2,
                        "numClasses": labels.count + 1, "reduceAfter": 1, "head": "ctc"],
            "labels": labels, "blankIndex": 0,
            "decoder": ["lmWeight": 1, "insertionBonus": 0, "beamWidth": 16, "contextSeparator": ""],
        ]
        if let textForm { config["textForm"] = textForm }
        return try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])
    }

    /// `config.json` with `data` in a new temporary directory.
    static func write(_ data: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jamo-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("config.json")
        try data.write(to: url)
        return url
    }

    static func configuration() throws -> ModelConfiguration {
        let url = try write(try configJSON())
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try ModelConfiguration.load(from: url)
    }

    static let classLabels = [""] + labels
    static let symbolOfCharacter = Dictionary(uniqueKeysWithValues: labels.enumerated().map { (Character($1), $0 + 1) })
    static var labelText: LabelText {
        get throws { LabelText(classLabels: classLabels, symbolOfCharacter: symbolOfCharacter, form: try configuration().labelTextForm) }
    }

    /// The class of a jamo written as its scalar's value.
    static func symbol(_ value: UInt32) -> Int { symbolOfCharacter[Character(Unicode.Scalar(value)!)]! }

    /// One frame per entry (its classes' probabilities, the rest of the frame on the blank, every
    /// other class 1e-6), each followed by a blank frame.
    static func frames(_ spelled: [[Int: Float]]) -> FeatureMatrix {
        let C = labels.count + 1
        var m = FeatureMatrix(rows: 0, columns: C)
        func row(_ probs: [Int: Float]) {
            var r = [Float](repeating: logf(1e-6), count: C)
            r[0] = logf(max(1e-6, 1 - probs.values.reduce(0, +)))
            for (k, p) in probs { r[k] = logf(p) }
            m.values += r
            m.rows += 1
        }
        for probs in spelled {
            row(probs)
            row([:])
        }
        return m
    }

    /// A bigram language model over the labels (INKLM2-style, with its own alphabet): every symbol
    /// equally likely, except the bigrams given (previous label, label, probability).
    static func languageModel(_ bigrams: [(UInt32, UInt32, Float)]) -> CharacterNgramModel {
        let alphabet = labels
        let n = alphabet.count
        let index = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, UInt64($0 + 1)) })
        let unigrams = (1...n).map(UInt64.init)
        let pairs = bigrams.map { (a, b, p) -> (UInt64, Float) in
            let ka = index[String(Unicode.Scalar(a)!)]!, kb = index[String(Unicode.Scalar(b)!)]!
            return ((ka << 8) | kb, logf(p))
        }.sorted { $0.0 < $1.0 }
        let tables = CharacterNgramTables(
            order: 2, symbolCount: n + 1, bits: 8, alphabet: alphabet, unknownLogProbability: -20,
            keys: [unigrams, pairs.map(\.0)],
            logProbs: [LMValues(floats: [Float](repeating: -logf(Float(n)), count: n)), LMValues(floats: pairs.map(\.1))],
            logBackoffs: [LMValues(floats: [Float](repeating: 0, count: n)), LMValues(floats: [Float](repeating: 0, count: pairs.count))])
        return CharacterNgramModel(tables: tables).bound(toLabels: labels)
    }

    static func decoder(languageModel: CharacterNgramModel? = nil) throws -> CTCTextDecoder {
        CTCTextDecoder(configuration: try configuration(), classLabels: classLabels, symbolOfCharacter: symbolOfCharacter,
                       languageModel: languageModel)
    }

    static func options(_ edit: (inout DigitalInkRecognizerOptions) -> Void = { _ in }) -> DigitalInkRecognizerOptions {
        StageFixture.options(edit)
    }

    // ᄒ ᅡ ᆫ ᄀ ᅮ ᆨ: 한국.
    static let han: [UInt32] = [0x1112, 0x1161, 0x11AB]
    static let guk: [UInt32] = [0x1100, 0x116E, 0x11A8]
}

@Suite("Hangul jamo: a model whose labels are conjoining jamo")
struct HangulJamoModelTests {
    @Test("textForm: absent, hangul-jamo, or refused with a typed error")
    func configuration() throws {
        #expect(try JamoFixture.configuration().labelTextForm == .hangulJamo)
        for (json, reason) in [
            (try JamoFixture.configJSON(textForm: "x"), #"textForm: unknown "x" (known: hangul-jamo)"#),
            (try JamoFixture.configJSON(labels: JamoFixture.labels.dropLast() + ["e\u{301}"]),
             "textForm hangul-jamo: every label must be one Unicode scalar"),
        ] {
            let url = try JamoFixture.write(json)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect(throws: DigitalInkError.modelCorrupt(file: "config.json", reason: reason)) { try ModelConfiguration.load(from: url) }
        }
        let url = try JamoFixture.write(try JamoFixture.configJSON(textForm: nil))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let plain = try ModelConfiguration.load(from: url)
        #expect(plain.textForm == nil && plain.labelTextForm == nil)
    }

    @Test("text becomes symbols scalar by scalar over its jamo; symbols become composed syllables")
    func labelText() throws {
        let labels = try JamoFixture.labelText
        let expected = (JamoFixture.han + JamoFixture.guk).map(JamoFixture.symbol)
            + [" ", "O", "K"].map { JamoFixture.symbolOfCharacter[Character($0)]! }
        #expect(labels.symbols(of: "한국 OK") == expected)
        #expect(labels.symbols(of: Character("한"))?.count == 3)
        #expect(labels.symbols(of: "한x") == nil)  // "x" is no label
        #expect(scalars(labels.text(of: expected)) == scalars("한국 OK"))
        // The same table without the text form cannot read a syllable: one Character, no label.
        let plain = LabelText(classLabels: JamoFixture.classLabels, symbolOfCharacter: JamoFixture.symbolOfCharacter, form: nil)
        #expect(plain.symbols(of: "한") == nil)
    }

    @Test("a synthetic output spelling 한국 decodes to the precomposed syllables, with one segment per syllable")
    func decodesAndAligns() throws {
        let spelled = (JamoFixture.han + JamoFixture.guk).map { [JamoFixture.symbol($0): Float(0.98)] }
        let output = JamoFixture.frames(spelled)
        let candidates = try JamoFixture.decoder().candidates(for: output, context: RecognitionContext(),
                                                             options: JamoFixture.options())
        let best = try #require(candidates.first)
        #expect(scalars(best.text) == [0xD55C, 0xAD6D])
        #expect(best.text.count == 2)

        // Six strokes, one per jamo: output frame 2k (the jamo) and 2k + 1 (blank) are stroke k.
        let ink = Ink(strokes: (0..<6).map { k in
            Stroke(points: [StrokePoint(x: Float(10 * k), y: 0), StrokePoint(x: Float(10 * k + 5), y: 5)])
        })
        let origins = (0..<output.rows).map { FeatureExtractor.FrameOrigin(stroke: Int32($0 / 2), point: Int32($0 % 2)) }
        let aligner = CandidateAligner(labelText: try JamoFixture.labelText, reduction: 1)
        let segments = try #require(aligner.segmentation(of: best.text, output: output, origins: origins,
                                                         runs: _StrokeAssignment.strokeRuns(origins), ink: ink))
        #expect(segments.characters.count == best.text.count)
        #expect(segments.characters.map(\.text) == ["한", "국"])
        #expect(segments.characters.map { Set($0.strokes.map(\.stroke)) } == [[0, 1, 2], [3, 4, 5]])
        #expect(segments.words.count == 1 && segments.words.first?.characters == 0..<2)
    }

    @Test("a syllable pre-context reaches the language model as its jamo")
    func preContext() throws {
        // The first frame is ᄀ or ᄃ, evenly; then ᅡ. After ᆫ (the final of 한) the LM expects ᄀ, after ᅡ
        // (the vowel of 하) it expects ᄃ; after either initial, ᅡ.
        let lm = JamoFixture.languageModel([(0x11AB, 0x1100, 0.5), (0x11AB, 0x1103, 0.001),
                                            (0x1161, 0x1103, 0.5), (0x1161, 0x1100, 0.001),
                                            (0x1100, 0x1161, 0.9), (0x1103, 0x1161, 0.9)])
        let output = JamoFixture.frames([[JamoFixture.symbol(0x1100): 0.49, JamoFixture.symbol(0x1103): 0.49],
                                         [JamoFixture.symbol(0x1161): 0.98]])
        let decoder = try JamoFixture.decoder(languageModel: lm)
        func best(after pre: String) -> [UInt32] {
            scalars(decoder.candidates(for: output, context: RecognitionContext(preContext: pre),
                                       options: JamoFixture.options()).first?.text ?? "")
        }
        #expect(best(after: "한") == [0xAC00])  // 가
        #expect(best(after: "하") == [0xB2E4])  // 다
        #expect(best(after: "OK 한") == [0xAC00])
    }

    @Test("an allowed-characters set of syllables allows their jamo, and only its syllables come back")
    func allowedSyllables() throws {
        // ᄒ ᅡ, then a final that is ᆨ (학) more than ᆫ (한).
        let output = JamoFixture.frames([[JamoFixture.symbol(0x1112): 0.98], [JamoFixture.symbol(0x1161): 0.98],
                                         [JamoFixture.symbol(0x11A8): 0.6, JamoFixture.symbol(0x11AB): 0.38]])
        let decoder = try JamoFixture.decoder()
        let free = decoder.candidates(for: output, context: RecognitionContext(), options: JamoFixture.options())
        #expect(free.first.map { scalars($0.text) } == [0xD559])  // 학
        let allowed: Set<Character> = ["한", "국"]
        let hinted = decoder.candidates(for: output, context: RecognitionContext(),
                                        options: JamoFixture.options { $0.allowedCharacters = allowed })
        #expect(hinted.first.map { scalars($0.text) } == [0xD55C])  // 한
        #expect(hinted.allSatisfy { $0.text.allSatisfy(allowed.contains) }, "\(hinted.map(\.text))")
    }

    @Test("a vocabulary of syllable words is walked as jamo")
    func vocabulary() throws {
        let vocabulary = try RecognitionVocabulary(["한국", "OK"], strict: true)
        #expect(vocabulary.trie(for: nil) === vocabulary.trie)
        #expect(vocabulary.trie(for: .hangulJamo).characters
            == Set((JamoFixture.han + JamoFixture.guk).map { Character(Unicode.Scalar($0)!) } + ["O", "K"]))
        // ᄒ ᅡ ᆨ (학) in the ink: the strict vocabulary of 한국 and OK still answers with its closest entry.
        let output = JamoFixture.frames([[JamoFixture.symbol(0x1112): 0.98], [JamoFixture.symbol(0x1161): 0.98],
                                         [JamoFixture.symbol(0x11A8): 0.6, JamoFixture.symbol(0x11AB): 0.38],
                                         [JamoFixture.symbol(0x1100): 0.98], [JamoFixture.symbol(0x116E): 0.98],
                                         [JamoFixture.symbol(0x11A8): 0.98]])
        let candidates = try JamoFixture.decoder().candidates(for: output, context: RecognitionContext(),
                                                              options: JamoFixture.options { $0.vocabulary = vocabulary })
        #expect(candidates.first.map { scalars($0.text) } == [0xD55C, 0xAD6D])
        #expect(candidates.allSatisfy { ["한국", "OK"].contains($0.text) }, "\(candidates.map(\.text))")
    }
}
