// The README's "First program", as written there (keep the two in step).
import DigitalInk
import DigitalInkModels

let ink = Ink(strokes: [
    Stroke(points: [StrokePoint(x: 10, y: 40, t: 0), StrokePoint(x: 12, y: 60, t: 16), StrokePoint(x: 14, y: 80, t: 32)]),
    Stroke(points: [StrokePoint(x: 30, y: 60, t: 300), StrokePoint(x: 40, y: 58, t: 316), StrokePoint(x: 42, y: 80, t: 332)]),
])
let manager = ModelManager(repository: DigitalInkModels.repository)  // the models built into the program
guard let identifier = try await manager.modelIdentifier(forLanguageTag: "en-US") else { fatalError("no en-US model") }
let model = DigitalInkRecognitionModel(modelIdentifier: identifier)
if !manager.isModelDownloaded(model) {
    for try await progress in manager.download(model) { print(progress) }
}
let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: model, modelManager: manager))
let result = try await recognizer.recognize(ink, context: RecognitionContext(preContext: "hello"))
for candidate in result.candidates { print(candidate.text, candidate.score) }
