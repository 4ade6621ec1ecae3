import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The features and network stages (``NetworkReader``), the views (``ViewReader``), and the line
/// pipeline (``LinePipeline``) that both `recognize` and a page's lines run.
@Suite("Line pipeline: network reads, views, and one pipeline for recognize and pages")
struct LinePipelineTests {
    let model: LoadedModel
    init() throws { model = try StageFixture.model() }

    @Test("the network stage: a row per output frame, a column per class, an origin per input frame; none without points")
    func networkReader() throws {
        let ink = try sample("hello.json").ink
        let reader = NetworkReader(model: model)
        let (output, origins) = try reader.read(ink, writingArea: nil)
        let frames = try model.features.features(for: ink)
        #expect(output.rows > 0 && output.columns == model.network.configuration.numClasses)
        #expect(origins?.count == frames.rows)
        #expect(output == model.network.logProbabilities(frames))
        #expect(try reader.read(ink, writingArea: nil, origins: false).1 == nil)
        let (empty, none) = try reader.read(Ink(strokes: [Stroke(points: [])]), writingArea: nil)
        #expect(empty.rows == 0)
        #expect(none?.isEmpty == true)
    }

    @Test("the views: one output per stretch, each of the stretched ink, unlike the original's")
    func views() throws {
        let ink = try sample("hello.json").ink
        let options = StageFixture.options()
        let reader = try #require(ViewReader(model: model, options: options))
        let stretches = try #require(model.configuration.viewRescoring(options: options)).stretches
        #expect(reader.stretches == stretches)
        let outputs = try reader.outputs(ink, writingArea: nil)
        #expect(outputs.count == stretches.count)
        let (original, _) = try NetworkReader(model: model).read(ink, writingArea: nil)
        for (output, factor) in zip(outputs, stretches) {
            #expect(output != original)
            #expect(output == (try NetworkReader(model: model).read(ViewReader.stretched(ink, by: factor), writingArea: nil, origins: false)).0)
        }
        #expect(ViewReader(model: model, options: StageFixture.options { $0.decoder.viewWeight = 0 }) == nil)
    }

    @Test("with a writer's adaptation the stretches are the adapted network's, and the shipped network reads the ink as written on request")
    func viewsWithAdaptation() throws {
        let ink = try sample("hello.json").ink
        let options = StageFixture.options()
        let (H, C) = (model.network.headInputs, model.network.configuration.numClasses)
        let d = (0..<C).map { Float($0 % 3) - 1 }  // a change to the output that every frame shows
        let change = WriterAdaptation.head(HeadAdapter(rank: 1, inputs: H, classes: C, a: [Float](repeating: 0, count: H),
                                                       b: [Float](repeating: 0, count: C), d: d))
        let reader = try #require(ViewReader(model: model, options: options, adaptation: change))
        let stretches = try #require(model.configuration.viewRescoring(options: options)).stretches
        let outputs = try reader.outputs(ink, writingArea: nil)
        #expect(outputs.count == stretches.count)
        let shipped = try NetworkReader(model: model).read(ink, writingArea: nil, origins: false).0
        let adapted = NetworkReader(model: model, adaptation: change)
        #expect(try reader.baseOutput(ink, writingArea: nil) == shipped)
        #expect(try adapted.read(ink, writingArea: nil, origins: false).0 != shipped)
        for (output, factor) in zip(outputs, stretches) {
            #expect(output == (try adapted.read(ViewReader.stretched(ink, by: factor), writingArea: nil, origins: false)).0)
        }
        let plain = try #require(ViewReader(model: model, options: options))
        #expect(plain.base == nil)
        #expect(try plain.baseOutput(ink, writingArea: nil) == nil)
    }

    @Test("recognize runs the line pipeline: the same candidates, scores and segments", arguments: ["hello.json", "line.json"])
    func recognize(_ name: String) async throws {
        let ink = try sample(name).ink
        let recognizer = DigitalInkRecognizer(options: StageFixture.options())
        let context = RecognitionContext(preContext: "say")
        let got = try LinePipeline(model: model, options: recognizer.options).recognize(ink, context: context)
        let want = try await recognizer.recognize(ink, context: context)
        #expect(!got.candidates.isEmpty)
        #expect(got == want)
        #expect(got.candidates.allSatisfy { $0.segments != nil })
    }

    @Test("a page's line: its read-ahead output decodes to what recognizing the line alone gives")
    func pageLine() async throws {
        let page = try #require(FixturePage.all.first { $0.variant == "plain" && $0.lines.count >= 2 })
        let recognizer = DigitalInkRecognizer(options: StageFixture.options())
        let pipeline = LinePipeline(model: model, options: recognizer.options)
        let line = try #require(try InkLayout.lines(of: page.ink).first)
        let lineInk = Ink(strokes: line.strokeIndices.map { page.ink.strokes[$0] })
        let read = try pipeline.read(lineInk)
        #expect(read.views.count == model.configuration.viewRescoring(options: recognizer.options)?.stretches.count)
        let got = try pipeline.candidates(for: read.network, origins: read.origins, views: InkViews(outputs: read.views),
                                          eitherOf: [(RecognitionContext(), 1)], ink: lineInk)
        #expect(got == (try await recognizer.recognize(lineInk)).candidates)
        let first = try #require(try await recognizer.recognizePage(page.ink).lines.first)
        #expect(first.candidates.map(\.text) == got.map(\.text))
        #expect(first.candidates.map(\.score) == got.map(\.score))
        // An ink without points: no views, no candidates.
        let empty = try pipeline.read(Ink(strokes: []))
        #expect(empty.network.rows == 0 && empty.views.isEmpty)
        #expect(try pipeline.candidates(for: empty.network, origins: empty.origins, views: .none,
                                        eitherOf: [(RecognitionContext(), 1)], ink: Ink(strokes: [])).isEmpty)
    }
}

/// Context chaining (``LineContextChain``) and segmentation (``LineSegmenter``) of a page.
@Suite("Page: segmentation and context chaining")
struct PageFlowTests {
    @Test("the first line reads after the page's pre-context; a line below text reads after it and afresh")
    func chain() {
        var chain = LineContextChain(page: RecognitionContext(preContext: "Dear", postContext: "Yours"), separator: " ", continuation: 0.7)
        func describe(_ contexts: [(context: RecognitionContext, prior: Float)]) -> [String] {
            contexts.map { "\($0.context.preContext)|\($0.context.postContext)|\($0.prior)" }
        }
        #expect(describe(chain.contexts(isLast: false)) == ["Dear||1.0"])
        chain.append("")  // an empty line changes nothing
        #expect(describe(chain.contexts(isLast: false)) == ["Dear||1.0"])
        chain.append("hello there")
        #expect(describe(chain.contexts(isLast: false)) == ["hello there ||0.7", "||\(Float(1) - 0.7)"])
        #expect(describe(chain.contexts(isLast: true)) == ["hello there |Yours|0.7", "|Yours|\(Float(1) - 0.7)"])
        chain.append("world")
        #expect(chain.contexts(isLast: false)[0].context.preContext == "world ")
    }

    @Test("the segmenter gives InkLayout's lines: strokes in reading order and their box")
    func segmentation() throws {
        for page in FixturePage.all.prefix(5) {
            let lines = try LineSegmenter().lines(of: page.ink)
            #expect(lines == (try InkLayout.lines(of: page.ink)))
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(line.boundingBox == BoundingBox(strokes: line.strokeIndices, of: page.ink))
                #expect(line.boundingBox.width > 0)
            }
            #expect(Set(lines.flatMap(\.strokeIndices)).count == lines.flatMap(\.strokeIndices).count)
        }
    }
}
