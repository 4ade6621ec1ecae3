import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The view-rescoring stage (``ViewRescorer``) on outputs written by hand: the margin decides whether
/// the views are read at all; read, they move the scores by the rule's change.
@Suite("Line pipeline: the view-rescoring stage")
struct ViewRescorerStageTests {
    let model: LoadedModel
    let original: FeatureMatrix
    let view: FeatureMatrix
    init() throws {
        model = try StageFixture.model()
        original = StageFixture.frames(["a": 0.5, "e": 0.3, "o": 0.15], model: model)
        view = StageFixture.frames(["a": 0.2, "e": 0.7, "o": 0.05], model: model)
    }

    func rescorer(margin: Float?, beamWidth: Int? = nil) -> ViewRescorer {
        var configuration = model.configuration
        configuration.decoder?.viewRescoring = .init(stretches: [0.9], weight: 1, candidates: 10, margin: margin, beamWidth: beamWidth)
        return ViewRescorer(configuration: configuration, symbolOfCharacter: model.symbolOfCharacter)
    }

    func ranked(lead: Float) -> [TextHypothesis] {
        [TextHypothesis(text: "a", score: -1, symbols: [model.symbolOfCharacter["a"]!]),
         TextHypothesis(text: "e", score: -1 - lead, symbols: [model.symbolOfCharacter["e"]!])]
    }

    @Test("a lead of the margin or more: the views are never read and nothing moves")
    func sure() throws {
        var reads = 0
        let views = InkViews { () throws(DigitalInkError) in reads += 1; return [view] }
        let got = try rescorer(margin: 2).rescored(ranked(lead: 2), output: original, views: views, options: StageFixture.options()) { _ in
            Issue.record("a view's beam ran"); return []
        }
        #expect(reads == 0)
        #expect(got == ranked(lead: 2))
    }

    @Test("a lead under the margin: the views are read once and each score moves by weight · (mean − ℓ₀)")
    func close() throws {
        var reads = 0
        let views = InkViews { () throws(DigitalInkError) in reads += 1; return [view] }
        let before = ranked(lead: 0.5)
        let got = try rescorer(margin: 2).rescored(before, output: original, views: views, options: StageFixture.options()) { _ in
            Issue.record("a view's beam ran without a view beam width"); return []
        }
        #expect(reads == 1)
        let moves = ViewRescorer.adjustments(before.map(\.symbols), original: original, views: [view], weight: 1)
        #expect(moves.allSatisfy { $0 != 0 })
        let want = Dictionary(uniqueKeysWithValues: zip(before, moves).map { ($0.text, $0.score + $1) })
        #expect(got.count == 2)
        for h in got { #expect(abs(h.score - want[h.text]!) < 1e-6) }
        // The view favours "e": it now wins.
        #expect(got.map(\.text) == ["e", "a"])
    }

    @Test("a writer's adaptation: the shipped network's reading joins the views only under its margin, first")
    func shippedNetwork() throws {
        let margin = ViewRescorer.shippedNetworkMargin
        for lead in [margin / 2, (margin + 5) / 2] {
            var reads = 0, baseReads = 0
            let views = InkViews(reading: { () throws(DigitalInkError) in reads += 1; return [view] },
                                 base: { () throws(DigitalInkError) in baseReads += 1; return original })
            let before = ranked(lead: lead)
            let got = try rescorer(margin: 5).rescored(before, output: original, views: views, options: StageFixture.options()) { _ in
                Issue.record("a view's beam ran without a view beam width"); return []
            }
            #expect(reads == 1)
            let joins = lead < margin
            #expect(baseReads == (joins ? 1 : 0))
            let moves = ViewRescorer.adjustments(before.map(\.symbols), original: original,
                                                 views: joins ? [original, view] : [view], weight: 1)
            let want = Dictionary(uniqueKeysWithValues: zip(before, moves).map { ($0.text, $0.score + $1) })
            for h in got { #expect(abs(h.score - want[h.text]!) < 1e-6, "lead \(lead): \(h.text)") }
        }
    }

    @Test("a view beam's options: the narrower width, no threshold; without a view beam width, the options as they are")
    func viewBeamOptions() {
        let options = StageFixture.options { $0.decoder.beamWidth = 8; $0.decoder.beamThreshold = 5 }
        let narrow = rescorer(margin: nil, beamWidth: 4).viewBeamOptions(options)
        #expect(narrow.decoder.beamWidth == 4)
        #expect(narrow.decoder.beamThreshold == .infinity)
        #expect(rescorer(margin: nil, beamWidth: 32).viewBeamOptions(options).decoder.beamWidth == 8)
        let same = rescorer(margin: nil).viewBeamOptions(options)
        #expect(same.decoder.beamWidth == 8)
        #expect(same.decoder.beamThreshold == 5)
    }
}
