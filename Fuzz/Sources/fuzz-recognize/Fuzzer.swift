// libFuzzer target: the recognizer on parsed inks. The input's first byte picks the model and the
// options; the rest is read with InkDocument.read (any ink format, sniffed), validated as
// DigitalInkRecognizer.recognize does, and recognized with the document's pre-context and writing
// area (a pre-context with "|" is also a vocabulary). The candidates' confidences, segments and (strict)
// vocabulary are checked. Models: the shipped Models/zxx-Zsym-x-shapes (classifier) and Models/en-US (CTC + beam
// search + language model), loaded once. FUZZ_MODELS_DIR overrides where Models/ is.
import Foundation
import FuzzMain
@_spi(Engine) @testable import DigitalInk

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
    guard let doc = try? InkDocument.read(data, source: "fuzz") else { return 0 }
    // What the public recognize(_:context:) checks before running the model.
    do {
        try doc.ink.validate()
        try doc.writingArea?.validate()
    } catch { return 0 }
    let (model, dir) = models[Int(selector & 1)]
    var options = DigitalInkRecognizerOptions(modelDirectory: dir)
    options.maxResultCount = Int(selector >> 1 & 3) * 4 + 1      // 1, 5, 9, 13
    options.useLanguageModel = selector & 8 == 0
    options.decoder.beamWidth = selector & 16 == 0 ? nil : Int(selector >> 5) + 1   // 1...8
    // A pre-context with "|" is also a vocabulary (strict when bit 4 is set): the vocabulary walk in the beam.
    let pre = doc.preContext ?? ""
    if pre.contains("|"), let v = try? RecognitionVocabulary(pre.split(separator: "|").map(String.init), strict: selector & 16 != 0) {
        options.vocabulary = v
    }
    let context = RecognitionContext(preContext: pre, writingArea: doc.writingArea)
    // Typed errors (an ink too long for its size, say) are answers; only a crash is a finding.
    guard let result = try? DigitalInkRecognizer.recognize(doc.ink, context: context, model: model, options: options) else { return 0 }
    for candidate in result.candidates {
        precondition(candidate.score.isFinite || model.configuration.modelKind == .text, "non-finite shape score")
        if let c = candidate.confidence { precondition(c.isNaN == false && c >= 0 && c <= 1, "confidence \(c) outside 0...1") }
        if let segments = candidate.segments {
            precondition(segments.characters.count == candidate.text.count, "one segment per character")
            for c in segments.characters { for span in c.strokes { precondition(span.points.upperBound <= doc.ink.strokes[span.stroke].points.count) } }
        }
        if let v = options.vocabulary, v.isStrict {
            let t = candidate.text  // an entry, or a space (after a pre-context) and an entry
            precondition(v.entries.contains(t) || (t.first == " " && v.entries.contains(String(t.dropFirst()))), "strict vocabulary: \(t)")
        }
    }
    return 0
}
