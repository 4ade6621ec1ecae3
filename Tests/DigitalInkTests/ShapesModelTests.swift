import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Shape inks drawn here in code (screen coordinates, y down), independently of the training generator:
/// polylines with a small smooth wobble, a pen's point spacing and timestamps.
enum ShapeInks {
    typealias Point = (x: Float, y: Float)

    /// A stroke along `vertices`, a point every `spacing` units, displaced sideways by a smooth wobble.
    static func stroke(_ vertices: [Point], spacing: Float = 4, wobble: Float = 1.5, phase: Float = 0, t0: Int64 = 0) -> Stroke {
        var pts: [StrokePoint] = []
        var travelled: Float = 0
        for (a, b) in zip(vertices, vertices.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            let n = max(1, Int((len / spacing).rounded()))
            for k in (pts.isEmpty ? 0 : 1)...n {
                let f = Float(k) / Float(n)
                let s = travelled + f * len
                let w = wobble * (sinf(s / 37 + phase) + 0.5 * sinf(s / 13 + 2 * phase))
                let nx = len > 0 ? -dy / len : 0, ny = len > 0 ? dx / len : 0
                pts.append(StrokePoint(x: a.x + f * dx + w * nx, y: a.y + f * dy + w * ny, t: t0 + Int64(pts.count * 8)))
            }
            travelled += len
        }
        return Stroke(points: pts)
    }

    /// Outline of a `width` × `height` rectangle centred on (cx, cy) whose corners are quarter circles of
    /// radius `rounding` × half the shorter side, clockwise from the top-left end of the top edge.
    static func roundedRectangle(cx: Float, cy: Float, width: Float, height: Float, rounding: Float) -> [Point] {
        let r = rounding * min(width, height) / 2
        let x0 = cx - width / 2, x1 = cx + width / 2, y0 = cy - height / 2, y1 = cy + height / 2
        var out: [Point] = []
        let corners: [(Float, Float, Float)] = [(x1 - r, y0 + r, -.pi / 2), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, .pi / 2), (x0 + r, y0 + r, .pi)]
        out.append((x0 + r, y0))
        for (ccx, ccy, a0) in corners {
            for k in 0...12 {
                let a = a0 + Float(k) / 12 * .pi / 2
                out.append((ccx + r * cosf(a), ccy + r * sinf(a)))
            }
        }
        out.append((x0 + r, y0))
        return out
    }

    static func ink(_ strokes: [Stroke]) -> Ink { Ink(strokes: strokes) }

    /// A rectangle with sharp corners in one clockwise stroke from its top-left corner, closing with
    /// a small overshoot along the top edge.
    static let rectangle = ink([stroke([(100, 100), (340, 100), (340, 250), (100, 250), (100, 102), (118, 98)])])
    /// The same rectangle with very rounded corners (radius 0.75 of half its height): half way to a stadium.
    static let roundedRectangle = ink([stroke(roundedRectangle(cx: 220, cy: 175, width: 240, height: 150, rounding: 0.75))])
    /// A circle, counter-clockwise from its top, slightly overshot.
    static let circle = ink([stroke((0...75).map { k -> Point in
        let a = -Float.pi / 2 - Float(k) / 70 * 2 * .pi
        return (200 + 90 * cosf(a), 200 + 90 * sinf(a))
    })])
    static let triangle = ink([stroke([(200, 60), (300, 240), (95, 238), (198, 64)])])
    static let arrow = ink([stroke([(80, 300), (320, 140)]), stroke([(262, 144), (320, 140), (296, 194)], phase: 1, t0: 2000)])
    static let line = ink([stroke([(50, 200), (350, 236)])])
    static let diamond = ink([stroke([(200, 50), (305, 170), (200, 292), (96, 172), (202, 52)])])
    static let star = ink([stroke((0...5).map { k -> Point in
        let a = -Float.pi / 2 + Float(k * 2 % 5) * 2 * .pi / 5
        return (200 + 120 * cosf(a), 200 + 120 * sinf(a))
    })])
    static let check = ink([stroke([(100, 190), (150, 255), (290, 90)])])
    static let cross = ink([stroke([(100, 100), (260, 260)]), stroke([(262, 96), (98, 258)], phase: 2, t0: 2000)])
}

@Suite("The shapes model (zxx-Zsym-x-shapes)")
struct ShapesModelTests {
    static let directory = Fixtures.modelsDirectory.appendingPathComponent("zxx-Zsym-x-shapes")
    static let classes = ["rectangle", "triangle", "ellipse", "arrow", "line", "diamond", "star", "check", "cross"]

    /// A recognizer for the shapes model installed by a `ModelManager` from the embedded repository.
    static func managedRecognizer(maxResults: Int = 10) async throws -> (DigitalInkRecognizer, URL) {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("shapes-store-\(UUID().uuidString)")
        let manager = ModelManager(repository: .directory(Fixtures.modelsDirectory), storageDirectory: storage)
        let id = try #require(try DigitalInkRecognitionModelIdentifier.from(languageTag: "zxx-Zsym-x-shapes", in: try await manager.fetchManifest()))
        #expect(id == .shapes)
        let model = DigitalInkRecognitionModel(modelIdentifier: id)
        _ = try await manager.download(model).wait()
        #expect(manager.isModelDownloaded(model))
        var options = DigitalInkRecognizerOptions(model: model, modelManager: manager)
        options.maxResultCount = maxResults
        return (DigitalInkRecognizer(options: options), storage)
    }

    static func scores(_ result: DigitalInkRecognitionResult) -> [String: Float] {
        Dictionary(uniqueKeysWithValues: result.candidates.map { ($0.text, $0.score) })
    }

    @Test("the shipped model is a shapes model in the manifest, small, with the classes in order")
    func shipped() throws {
        let manifest = try ModelManifest(contentsOf: Fixtures.modelsDirectory.appendingPathComponent(ModelManifest.fileName))
        let entry = try #require(manifest.model(for: .shapes))
        #expect(entry.kind == .shapes)
        #expect(entry.totalSize < 1_000_000)
        let model = try LoadedModel(directory: Self.directory)
        #expect(model.configuration.kind == "shapes")
        #expect(model.classLabels == Self.classes)
        #expect(model.network.configuration.head == .classifier)
        #expect(model.configuration.modelKind == .classifier)
    }

    @Test("the engine reproduces PyTorch's features and log-probabilities on the golden inks")
    func golden() throws {
        let golden = try Fixtures.json("shapes-golden.json")
        #expect(golden["model"] as? String == "zxx-Zsym-x-shapes")
        let model = try LoadedModel(directory: Self.directory)
        let cases = golden["cases"] as! [[String: Any]]
        #expect(cases.count >= 3)
        for c in cases {
            let (ink, _) = Fixtures.ink(c["ink"]!)
            let features = try model.features.features(for: ink)
            let expectedFeatures = Fixtures.matrix(c["features"]!, columns: 4)
            #expect(features.rows == expectedFeatures.rows)
            #expect(maxAbsDifference(features, expectedFeatures) < 1e-5)
            let expected = Fixtures.matrix(c["logProbs"]!, columns: Self.classes.count)
            let got = model.network.logProbabilities(features)
            #expect(got.rows == 1)
            #expect(maxAbsDifference(got, expected) < 1e-4, "\(c["label"] ?? "")")
        }
    }

    @Test("candidates are every class, best first, with probabilities summing to 1")
    func candidates() async throws {
        let (recognizer, storage) = try await Self.managedRecognizer()
        defer { try? FileManager.default.removeItem(at: storage) }
        for ink in [ShapeInks.rectangle, ShapeInks.circle, ShapeInks.arrow] {
            let r = try await recognizer.recognize(ink)
            #expect(Set(r.candidates.map(\.text)) == Set(Self.classes))
            #expect(zip(r.candidates, r.candidates.dropFirst()).allSatisfy { $0.score >= $1.score })
            #expect(r.candidates.allSatisfy { $0.score >= 0 && $0.score <= 1 })
            #expect(abs(r.candidates.reduce(Float(0)) { $0 + $1.score } - 1) < 1e-3)
        }
        let (top3, storage3) = try await Self.managedRecognizer(maxResults: 3)
        defer { try? FileManager.default.removeItem(at: storage3) }
        #expect(try await top3.recognize(ShapeInks.rectangle).candidates.count == 3)
        #expect(try await top3.recognize(Ink(strokes: [])).candidates.isEmpty)
    }

    @Test("a clean rectangle beats ellipse by a wide margin")
    func cleanRectangle() async throws {
        let (recognizer, storage) = try await Self.managedRecognizer()
        defer { try? FileManager.default.removeItem(at: storage) }
        let r = try await recognizer.recognize(ShapeInks.rectangle)
        let s = Self.scores(r)
        #expect(r.candidates.first?.text == "rectangle")
        #expect(s["rectangle"]! >= 0.8, "\(r.candidates)")
        #expect(s["ellipse"]! <= 0.1, "\(r.candidates)")
    }

    @Test("a very rounded rectangle is ambiguous: rectangle and ellipse on top, with close scores")
    func roundedRectangle() async throws {
        let (recognizer, storage) = try await Self.managedRecognizer()
        defer { try? FileManager.default.removeItem(at: storage) }
        let r = try await recognizer.recognize(ShapeInks.roundedRectangle)
        let top = r.candidates.prefix(2)
        #expect(Set(top.map(\.text)) == ["rectangle", "ellipse"], "\(r.candidates)")
        #expect(top.count == 2 && top.first!.score - top.last!.score < 0.35, "\(r.candidates)")
        // Neither is confident, unlike the clean rectangle.
        #expect(top.first!.score < 0.8, "\(r.candidates)")
    }

    @Test("a circle is an ellipse")
    func circle() async throws {
        let (recognizer, storage) = try await Self.managedRecognizer()
        defer { try? FileManager.default.removeItem(at: storage) }
        let r = try await recognizer.recognize(ShapeInks.circle)
        #expect(r.candidates.first?.text == "ellipse", "\(r.candidates)")
        #expect(Self.scores(r)["ellipse"]! >= 0.8, "\(r.candidates)")
        #expect(Self.scores(r)["rectangle"]! <= 0.1, "\(r.candidates)")
    }

    @Test("inks drawn in code are recognized as their class",
          arguments: ["triangle", "arrow", "line", "diamond", "star", "check", "cross"])
    func classes(expected: String) async throws {
        let inks = ["triangle": ShapeInks.triangle, "arrow": ShapeInks.arrow, "line": ShapeInks.line, "diamond": ShapeInks.diamond,
                    "star": ShapeInks.star, "check": ShapeInks.check, "cross": ShapeInks.cross]
        let r = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: Self.directory))
        let result = try await r.recognize(try #require(inks[expected]))
        #expect(result.candidates.first?.text == expected, "\(result.candidates.prefix(3))")
    }

    @Test("the recognizer's scores are the engine's log-probabilities exponentiated")
    func scoresAreProbabilities() async throws {
        let model = try LoadedModel(directory: Self.directory)
        let r = try await DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: Self.directory)).recognize(ShapeInks.triangle)
        let lp = try model.network.logProbabilities(model.features.features(for: ShapeInks.triangle))
        for c in r.candidates {
            let i = try #require(Self.classes.firstIndex(of: c.text))
            #expect(abs(c.score - expf(lp[0, i])) < 1e-6)
        }
    }
}
