// libFuzzer target: the recognizer on parsed inks. The input's first byte picks the model and the
// options; the rest is read with InkDocument.read (any ink format, sniffed), validated as
// DigitalInkRecognizer.recognize does, and recognized with the document's pre-context and writing
// area. Models: the shipped Models/zxx-Zsym-x-shapes (classifier) and Models/en-US (CTC + beam
// search + language model), loaded once. FUZZ_MODELS_DIR overrides where Models/ is.
import Foundation
import FuzzMain
@testable import DigitalInk

let modelsDirectory: URL = {
    if let dir = ProcessInfo.processInfo.environment["FUZZ_MODELS_DIR"] { return URL(fileURLWithPath: dir) }
    // Fuzz/Sources/fuzz-recognize/Fuzzer.swift -> repository root
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models")
}()

let models: [(LoadedModel, URL)] = ["zxx-Zsym-x-shapes", "en-US"].map { name in
    let dir = modelsDirectory.appendingPathComponent(name)
    do { return (try LoadedModel(directory: dir), dir) } catch {
        fatalError("fuzz-recognize: cannot load \(dir.path): \(error) (set FUZZ_MODELS_DIR)")
    }
}

func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard count > 1, let start else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let selector = bytes[0]
    let data = Data(bytes[1...])
    if InkFormat.detect(data) == .inkML, isKnownInkMLCrash(UnsafeRawBufferPointer(rebasing: bytes[1...])) { return 0 }
    guard let doc = try? InkDocument.read(data, source: "fuzz") else { return 0 }
    // What the public recognize(_:context:) checks before running the model.
    do {
        try doc.ink.validate()
        try doc.writingArea?.validate()
    } catch { return 0 }
    let (model, dir) = models[Int(selector & 1)]
    if isKnownResampleIssue(doc, model: model) { return 0 }
    var options = DigitalInkRecognizerOptions(modelDirectory: dir)
    options.maxResultCount = Int(selector >> 1 & 3) * 4          // 0, 4, 8, 12
    options.useLanguageModel = selector & 8 == 0
    options.beamWidth = selector & 16 == 0 ? nil : Int(selector >> 5) + 1   // 1...8
    let context = RecognitionContext(preContext: doc.preContext ?? "", writingArea: doc.writingArea)
    let result = DigitalInkRecognizer.recognize(doc.ink, context: context, model: model, options: options)
    for candidate in result.candidates {
        precondition(candidate.score.isFinite || model.configuration.kind == "text", "non-finite shape score")
        _ = candidate.text
    }
    return 0
}

/// Known: FeatureExtractor.resample traps (Double to Int) on huge or degenerate inks, and tiny writing
/// areas make it resample into unboundedly many points. Skipped (unless FUZZ_SKIP_KNOWN=0) when the
/// resampled length, estimated as FeatureExtractor.features computes it, is not finite or over 10^5
/// points per stroke.
func isKnownResampleIssue(_ doc: InkDocument, model: LoadedModel) -> Bool {
    guard skipKnownIssues else { return false }
    let strokes = doc.ink.strokes.filter { !$0.points.isEmpty }
    guard !strokes.isEmpty else { return false }
    var xs: [Double] = [], ys: [Double] = [], widths: [Double] = []
    for stroke in strokes {
        var lo = Double.infinity, hi = -Double.infinity
        for p in stroke.points {
            xs.append(Double(p.x)); ys.append(Double(p.y))
            lo = min(lo, Double(p.x)); hi = max(hi, Double(p.x))
        }
        widths.append(hi - lo)
    }
    xs.sort(); ys.sort(); widths.sort()
    let features = model.features
    let h = features.lineHeight(sortedX: xs, sortedY: ys, sortedStrokeWidths: widths,
                                writingAreaHeight: doc.writingArea.map { Double($0.height) })
    let s = h / features.stepsPerLineHeight
    for stroke in strokes {
        var total = 0.0
        for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
            let dx = Double(b.x) - Double(a.x), dy = Double(b.y) - Double(a.y)
            total += (dx * dx + dy * dy).squareRoot()
        }
        let n = total / s
        if !n.isFinite && total > 0 || n > 100_000 || !s.isFinite || s < 0 { return true }
    }
    return false
}
