import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The view rescoring (`decoder.viewRescoring`): its CTC log-likelihood and score changes match the
/// Python reference (`Training/inkrec_training/views.py`, the fixture from `torch.ctc_loss`), its
/// settings are checked, and the recognizer applies it as the rule says.
@Suite("View rescoring matches the Python reference")
struct ViewRescoringTests {
    @Test("CTC log-likelihoods equal torch.ctc_loss's (relative 1e-6); -inf where no path exists")
    func logLikelihoods() throws {
        let golden = try Fixtures.json("ctc-likelihood.json")
        var finite = 0
        for output in golden["outputs"] as! [[String: Any]] {
            let lp = Fixtures.matrix(output["logProbs"]!, columns: (output["logProbs"] as! [[NSNumber]])[0].count)
            for c in output["cases"] as! [[String: Any]] {
                let labels = (c["labels"] as! [NSNumber]).map(\.intValue)
                let got = CTCLikelihood.logLikelihood(labels, logProbs: lp)
                if let want = (c["logLikelihood"] as? NSNumber)?.doubleValue {
                    #expect(abs(got - want) <= 1e-6 * max(1, abs(want)), "\(output["name"]!) \(labels): \(got) vs \(want)")
                    finite += 1
                } else {
                    #expect(got == -.infinity, "\(output["name"]!) \(labels): \(got)")
                }
            }
        }
        #expect(finite >= 20)
    }

    @Test("bad labels and empty outputs")
    func edges() {
        let lp = FeatureMatrix(rows: 3, columns: 4, values: [Float](repeating: log(0.25), count: 12))
        #expect(CTCLikelihood.logLikelihood([0], logProbs: lp) == -.infinity)  // the blank is no label
        #expect(CTCLikelihood.logLikelihood([4], logProbs: lp) == -.infinity)  // outside the classes
        #expect(CTCLikelihood.logLikelihood([1, 1], logProbs: FeatureMatrix(rows: 2, columns: 4, values: [Float](repeating: log(0.25), count: 8))) == -.infinity)
        #expect(abs(CTCLikelihood.logLikelihood([], logProbs: lp) - 3 * log(0.25)) < 1e-6)
        #expect(CTCLikelihood.logLikelihood([], logProbs: FeatureMatrix(rows: 0, columns: 4)) == 0)
        #expect(CTCLikelihood.logLikelihood([2], logProbs: FeatureMatrix(rows: 0, columns: 4)) == -.infinity)
    }

    @Test("score changes of the fixture's candidates, views of other lengths, within 1e-4")
    func adjustments() throws {
        let r = try Fixtures.json("ctc-likelihood.json")["rescoring"] as! [String: Any]
        func matrix(_ o: Any) -> FeatureMatrix { Fixtures.matrix(o, columns: (o as! [[NSNumber]])[0].count) }
        let candidates = (r["candidates"] as! [[NSNumber]]).map { $0.map(\.intValue) }
        let got = ViewRescorer.adjustments(candidates, original: matrix(r["original"]!), views: (r["views"] as! [Any]).map(matrix),
                                           weight: (r["weight"] as! NSNumber).floatValue)
        let want = (r["adjustments"] as! [NSNumber]).map(\.floatValue)
        #expect(got.count == want.count)
        for (g, w) in zip(got, want) { #expect(abs(g - w) < 1e-4, "\(got) vs \(want)") }
    }

    @Test("a view multiplies every x by its factor; its features are the Python reference's")
    func stretchedFeatures() throws {
        let s = try Fixtures.json("ctc-likelihood.json")["stretch"] as! [String: Any]
        let (ink, _) = Fixtures.ink(s["ink"]!)
        for view in s["views"] as! [[String: Any]] {
            let factor = (view["factor"] as! NSNumber).doubleValue
            let stretched = ViewReader.stretched(ink, by: factor)
            #expect(stretched.strokes[0].points[3].x == ink.strokes[0].points[3].x * Float(factor))
            #expect(stretched.strokes[1].points.map(\.y) == ink.strokes[1].points.map(\.y))
            let got = try FeatureExtractor(scheme: .resampledV2).features(for: stretched)
            let want = Fixtures.matrix(view["features"]!, columns: 4)
            #expect(got.rows == want.rows)
            if got.rows == want.rows { #expect(maxAbsDifference(got, want) < 1e-5, "factor \(factor)") }
        }
    }

    @Test("config.json's viewRescoring is checked field by field", arguments: [
        ("stretches", #"{"stretches": [], "weight": 1}"#),
        ("stretches", #"{"stretches": [0.9, 1.1, 0.8, 1.2, 1.3], "weight": 1}"#),
        ("stretches", #"{"stretches": [1.0], "weight": 1}"#),
        ("stretches", #"{"stretches": [3.0], "weight": 1}"#),
        ("weight", #"{"stretches": [0.9], "weight": 1e30}"#),
        ("candidates", #"{"stretches": [0.9], "weight": 1, "candidates": 0}"#),
        ("candidates", #"{"stretches": [0.9], "weight": 1, "candidates": 101}"#),
        ("margin", #"{"stretches": [0.9], "weight": 1, "margin": 0}"#),
        ("margin", #"{"stretches": [0.9], "weight": 1, "margin": -2}"#),
        ("margin", #"{"stretches": [0.9], "weight": 1, "margin": 1e30}"#),
        ("beamWidth", #"{"stretches": [0.9], "weight": 1, "beamWidth": 0}"#),
        ("beamWidth", #"{"stretches": [0.9], "weight": 1, "beamWidth": 100000}"#),
    ])
    func configChecked(field: String, json: String) throws {
        let rescoring = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let dir = try makeTinyModelDirectory { c in
            c["decoder"] = ["lmWeight": 0.5, "insertionBonus": 0, "beamWidth": 4, "viewRescoring": rescoring]
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try LoadedModel(directory: dir)
            Issue.record("loaded viewRescoring \(rescoring)")
        } catch {
            guard case .modelCorrupt(let file, let reason) = error else { Issue.record("\(error)"); return }
            #expect(file == "config.json")
            #expect(reason.contains("decoder.viewRescoring.\(field)"), "\(reason)")
        }
    }

    @Test("a view weight that is not finite is an invalid option")
    func weightOption() {
        #expect(throws: DigitalInkError.invalidOption(name: "viewWeight", reason: "nan is not a finite number")) {
            try DecoderSettings(viewWeight: .nan).validate()
        }
    }

    /// Checks `after` (a recognition of `ink` with views) against `before` (the same without them):
    /// where `before`'s best leads the second by the model's margin or more, `after` is `before`;
    /// otherwise every candidate of `before`'s rescored best that `after` also returns scores its old
    /// score moved by the rule's change, computed here from the views' outputs (a leading separator
    /// left out, as the decoder does). Returns how many were compared and the changes (none where the
    /// margin kept the views out).
    static func expectMoved(before: [DigitalInkRecognitionCandidate], after: [DigitalInkRecognitionCandidate], ink: Ink,
                            model: LoadedModel, options: DigitalInkRecognizerOptions) throws -> (compared: Int, moves: [Float]) {
        let rescoring = try #require(model.configuration.viewRescoring(options: options), "en-US rescores with views")
        let lead = before.count > 1 ? before[0].score - before[1].score : .infinity
        guard rescoring.rescores(lead: lead) else {
            #expect(after.map(\.text) == before.map(\.text))
            #expect(after.map(\.score) == before.map(\.score))
            return (before.count, [])
        }
        let (output, _) = try NetworkReader(model: model).read(ink, writingArea: nil)
        let views = try #require(ViewReader(model: model, options: options)).outputs(ink, writingArea: nil)
        #expect(views.count == rescoring.stretches.count)
        let top = before.prefix(rescoring.candidates ?? ModelConfiguration.ViewRescoring.defaultCandidates)
        let separator = model.symbolOfCharacter[" "]
        let moves = ViewRescorer.adjustments(top.map { c in
            let s = c.text.map { model.symbolOfCharacter[$0]! }
            return s.first == separator ? Array(s.dropFirst()) : s
        }, original: output, views: views, weight: rescoring.weight)
        var compared = 0
        for (c, move) in zip(top, moves) {
            guard let moved = after.first(where: { $0.text == c.text }) else { continue }
            #expect(abs(moved.score - (c.score + move)) < 1e-3 * max(1, abs(moved.score)), "\(c.text)")
            compared += 1
        }
        return (compared, moves)
    }

    @Test("en-US: scores move by weight · (mean log-likelihood − the original's), best first", arguments: [
        "hello.json", "argument.json", "digits.json",
    ])
    func recognizerApplies(_ name: String) async throws {
        let ink = try sample(name).ink
        let with = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        let without = with.withOptions { $0.decoder.viewWeight = 0 }
        let model = try await with.loadedModel()
        #expect(model.configuration.viewRescoring(options: without.options) == nil)
        let (a, b) = (try await with.recognize(ink).candidates, try await without.recognize(ink).candidates)
        #expect(a.count == b.count)
        #expect(zip(a, a.dropFirst()).allSatisfy { $0.score >= $1.score })
        let (compared, moves) = try Self.expectMoved(before: b, after: a, ink: ink, model: model, options: with.options)
        #expect(compared >= a.count / 2)
        let rescored = try #require(model.configuration.viewRescoring(options: with.options)).rescores(lead: b[0].score - b[1].score)
        #expect(!rescored || moves.contains { abs($0) > 1e-3 }, "the views changed no score")
    }

    /// The margin: an ink whose beam is sure (its best leads by the margin or more) never has its views
    /// read; one whose beam is close has them read once. The samples hold both kinds for en-US.
    @Test("en-US: the views are read only when the best two candidates are within the margin")
    func marginGatesReading() async throws {
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        let model = try await recognizer.loadedModel()
        let rescoring = try #require(model.configuration.viewRescoring(options: recognizer.options))
        let margin = try #require(rescoring.margin, "en-US's config.json gives a margin")
        var kinds: Set<Bool> = []
        for name in ["hello.json", "argument.json", "digits.json", "line.json", "there.json"] {
            let ink = try sample(name).ink
            let (output, _) = try NetworkReader(model: model).read(ink, writingArea: nil)
            let beam = model.decoder.candidates(for: output, context: RecognitionContext(), options: recognizer.options)
            let reads = Counter()
            let views = InkViews { () throws(DigitalInkError) in
                reads.add()
                return try ViewReader(model: model, options: recognizer.options)?.outputs(ink, writingArea: nil) ?? []
            }
            let got = try model.decoder.candidates(for: output, views: views, context: RecognitionContext(), options: recognizer.options)
            let close = beam.count > 1 && beam[0].score - beam[1].score < margin
            #expect(reads.value == (close ? 1 : 0), "\(name): lead \(beam[0].score - beam[1].score)")
            if !close { #expect(got.map(\.score) == beam.map(\.score), "\(name)") }
            kinds.insert(close)
        }
        #expect(kinds == [true, false], "the samples should hold inks on both sides of the margin")
    }

    /// `viewRescoring.beamWidth`: a reading that the original's beam (two wide here) dropped but a view's
    /// own beam finds joins, scored as the original would have scored it (its score in the view's beam
    /// less its likelihood there, plus its likelihood under the original), then moved by the rule; it
    /// wins where the views support it. Without the width it never appears.
    @Test("a view's own beam proposes a reading the original's beam dropped, scored as the original would have")
    func viewBeamProposes() throws {
        let model = try LoadedModel(directory: shippedModelDirectory)
        let C = model.network.configuration.numClasses
        let (a, e, o) = (model.symbolOfCharacter["a"]!, model.symbolOfCharacter["e"]!, model.symbolOfCharacter["o"]!)
        // Blank, one letter, blank: under the original "a" 0.5, "e" 0.3, "o" 0.15; under the view "o" 0.9.
        func frames(_ letter: [Int: Float]) -> FeatureMatrix {
            var m = FeatureMatrix(rows: 3, columns: C)
            m.values = [Float](repeating: logf(1e-6), count: 3 * C)
            m.values[0] = logf(0.98); m.values[2 * C] = logf(0.98)
            for (k, p) in letter { m.values[C + k] = logf(p) }
            m.values[C] = logf(0.04)
            return m
        }
        let original = frames([a: 0.5, e: 0.3, o: 0.15]), view = frames([a: 0.03, e: 0.03, o: 0.9])
        func decoder(beamWidth: Int?) -> CTCTextDecoder {
            var configuration = model.configuration
            configuration.decoder?.beamWidth = 2
            configuration.decoder?.viewRescoring = .init(stretches: [0.9], weight: 1, candidates: 10, margin: nil, beamWidth: beamWidth)
            return CTCTextDecoder(configuration: configuration, classLabels: model.classLabels,
                                  symbolOfCharacter: model.symbolOfCharacter, languageModel: nil)
        }
        var options = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
        options.maxResultCount = 2  // (the beam keeps at least as many as the results)
        let plain = decoder(beamWidth: nil)
        let beam = plain.candidates(for: original, context: RecognitionContext(), options: options)
        #expect(beam.map(\.text) == ["a", "e"], "the original's beam keeps two readings")
        let without = try plain.candidates(for: original, views: InkViews(outputs: [view]), context: RecognitionContext(),
                                           options: options)
        #expect(!without.contains { $0.text == "o" })
        let got = try decoder(beamWidth: 16).candidates(for: original, views: InkViews(outputs: [view]),
                                                       context: RecognitionContext(), options: options)
        #expect(got.first?.text == "o")
        // Its score: the view beam's score less its likelihood there plus its likelihood under the
        // original, moved by weight · (mean likelihood − the original's).
        let viewBeam = plain.candidates(for: view, context: RecognitionContext(), options: options)
        let proposed = try #require(viewBeam.first { $0.text == "o" })
        let (l0, lv) = (CTCLikelihood.logLikelihood([o], logProbs: original), CTCLikelihood.logLikelihood([o], logProbs: view))
        let want = proposed.score - Float(lv) + Float(l0) + Float((l0 + lv) / 2 - l0)
        let score = try #require(got.first { $0.text == "o" }).score
        #expect(abs(score - want) < 1e-4, "\(score) vs \(want)")
    }

    /// Counts calls (from the decoder's thread).
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A page: each line's ten best (without views) move by the rule's change for that line's ink,
    /// after the two readings (the line above as pre-context, and none) are merged.
    @Test("en-US pages: each line's merged candidates move by the views of that line")
    func pageLines() async throws {
        let page = try #require(FixturePage.all.first { $0.variant == "plain" && $0.lines.count >= 3 })
        let with = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        let without = with.withOptions { $0.decoder.viewWeight = 0 }
        let model = try await with.loadedModel()
        let (a, b) = (try await with.recognizePage(page.ink), try await without.recognizePage(page.ink))
        #expect(a.lines.map(\.strokeIndices) == b.lines.map(\.strokeIndices))
        var compared = 0
        for (lineA, lineB) in zip(a.lines, b.lines) where lineA.text == lineB.text {
            // (A line read differently changes the next line's pre-context: compare lines read alike.)
            let ink = Ink(strokes: lineB.strokeIndices.map { page.ink.strokes[$0] })
            compared += try Self.expectMoved(before: lineB.candidates, after: lineA.candidates, ink: ink, model: model,
                                             options: with.options).compared
        }
        #expect(compared >= 10)
    }
}
