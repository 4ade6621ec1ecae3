import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `decoder.lineContinuation` (``DecoderSettings/lineContinuation``): a page's line below the first is
/// read under two pre-contexts, the line above's text and none, and each candidate's score is
/// `log(p · exp(s_above) + (1 − p) · exp(s_none))`.
@Suite("Line continuation: a page's line goes on from the line above or starts afresh")
struct LineContinuationTests {
    /// A fixture page of at least three lines, and a recognizer whose options return the whole beam
    /// (64 candidates, the shipped model's width), so that every score of both readings is seen. The
    /// view rescoring is off: it moves the ten best of whatever list it is given, the page's merged one
    /// or each reading's, so that the mixture holds exactly only without it (ViewRescoringTests checks
    /// a page with it).
    static func setUp(continuation: Float?) throws -> (FixturePage, DigitalInkRecognizer) {
        let page = try #require(FixturePage.all.first { $0.variant == "plain" && $0.lines.count >= 3 })
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = 64
        options.decoder.viewWeight = 0
        options.decoder.lineContinuation = continuation
        return (page, DigitalInkRecognizer(options: options))
    }

    /// log(p e^a + (1 − p) e^b) in Double, either side possibly −∞.
    static func mixture(_ a: Float?, _ b: Float?, p: Double) -> Double {
        let terms = [(a, p), (b, 1 - p)].compactMap { s, w in s.map { Double($0) + log(w) } }.filter(\.isFinite)
        guard let top = terms.max() else { return -.infinity }
        return top + log(terms.reduce(0) { $0 + exp($1 - top) })
    }

    @Test("the default (0.5): every candidate of a line below the first scores the mixture of its two readings alone, best first",
          arguments: [nil, 0.5, 0.8] as [Float?])
    func mixtureOfTheTwoReadings(_ continuation: Float?) async throws {
        let (page, recognizer) = try Self.setUp(continuation: continuation)
        let p = Double(continuation ?? DecoderSettings.defaultLineContinuation)
        let result = try await recognizer.recognizePage(page.ink, context: RecognitionContext(preContext: "Note:"))
        try #require(result.lines.count >= 3)
        var above: String? = nil
        var sawBoth = false
        for line in result.lines {
            let ink = Ink(strokes: line.strokeIndices.map { page.ink.strokes[$0] })
            if let above {
                let continued = try await recognizer.recognize(ink, context: RecognitionContext(preContext: above + " "))
                let fresh = try await recognizer.recognize(ink, context: RecognitionContext(preContext: ""))
                let a = Dictionary(continued.candidates.map { ($0.text, $0.score) }, uniquingKeysWith: max)
                let b = Dictionary(fresh.candidates.map { ($0.text, $0.score) }, uniquingKeysWith: max)
                try #require(!line.candidates.isEmpty)
                for c in line.candidates {
                    #expect(a[c.text] != nil || b[c.text] != nil, "\(c.text) is in neither reading")
                    let expected = Self.mixture(a[c.text], b[c.text], p: p)
                    #expect(abs(Double(c.score) - expected) < 1e-3 * max(1, abs(expected)), "\(c.text): \(c.score) vs \(expected)")
                    sawBoth = sawBoth || (a[c.text] != nil && b[c.text] != nil && a[c.text] != b[c.text])
                }
                #expect(line.candidates.map(\.score) == line.candidates.map(\.score).sorted(by: >))
                // The best of the mixture is at least as good as the better reading's best, shifted by its prior.
                let bestA = continued.candidates.first.map { Double($0.score) + log(p) } ?? -.infinity
                let bestB = fresh.candidates.first.map { Double($0.score) + log(1 - p) } ?? -.infinity
                #expect(Double(line.candidates[0].score) >= max(bestA, bestB) - 1e-3)
            } else {
                // The first line reads after the caller's pre-context only.
                let alone = try await recognizer.recognize(ink, context: RecognitionContext(preContext: "Note:"))
                #expect(alone.candidates.map(\.text) == line.candidates.map(\.text))
                #expect(alone.candidates.map(\.score) == line.candidates.map(\.score))
            }
            if !line.text.isEmpty { above = line.text }
        }
        // (The two readings differ somewhere, so the test tells a mixture from either reading alone.)
        #expect(sawBoth)
    }

    @Test("0 reads every line below the first with no pre-context")
    func zeroStartsEveryLineAfresh() async throws {
        let (page, recognizer) = try Self.setUp(continuation: 0)
        let result = try await recognizer.recognizePage(page.ink, context: RecognitionContext(preContext: "Note:"))
        for (k, line) in result.lines.enumerated() {
            let ink = Ink(strokes: line.strokeIndices.map { page.ink.strokes[$0] })
            let alone = try await recognizer.recognize(ink, context: RecognitionContext(preContext: k == 0 ? "Note:" : ""))
            #expect(alone.candidates.map(\.text) == line.candidates.map(\.text))
            #expect(alone.candidates.map(\.score) == line.candidates.map(\.score))
        }
    }

    @Test("DecoderSettings.validate: lineContinuation must be in 0...1")
    func validatesTheOption() {
        for ok: Float in [0, 0.25, 0.5, 1] {
            #expect(throws: Never.self) { try DecoderSettings(lineContinuation: ok).validate() }
        }
        for bad: Float in [-0.1, 1.01, .nan, .infinity] {
            #expect {
                try DecoderSettings(lineContinuation: bad).validate()
            } throws: { error in
                guard case .invalidOption(let name, _) = error as? DigitalInkError else { return false }
                return name == "lineContinuation"
            }
        }
    }

    @Test("config.json: decoder.lineContinuation is read (absent: 0.5) and the option overrides it; outside 0...1 is modelCorrupt")
    func configuration() throws {
        let directory = try ContextSeparatorTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let absent = try ModelConfiguration.load(from: ContextSeparatorTests.writeConfiguration(decoder: "", in: directory))
        #expect(absent.lineContinuation() == 0.5)
        let set = try ModelConfiguration.load(from: ContextSeparatorTests.writeConfiguration(decoder: #", "lineContinuation": 0.8"#, in: directory))
        #expect(set.decoder?.lineContinuation == 0.8)
        #expect(set.lineContinuation() == 0.8)
        var options = DigitalInkRecognizerOptions(modelDirectory: directory)
        options.decoder.lineContinuation = 1
        #expect(set.lineContinuation(options: options) == 1)
        for bad in ["1.5", "-1", #""half""#] {
            let url = try ContextSeparatorTests.writeConfiguration(decoder: #", "lineContinuation": "# + bad, in: directory)
            #expect {
                _ = try ModelConfiguration.load(from: url)
            } throws: { error in
                guard case .modelCorrupt(let file, let reason) = error as? DigitalInkError else { return false }
                return file == "config.json" && reason.contains("decoder.lineContinuation")
            }
        }
    }
}
