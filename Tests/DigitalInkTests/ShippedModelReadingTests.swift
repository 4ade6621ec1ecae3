import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The shipped en-US model reads the recorded samples (real UNIPEN handwriting of writers it was
/// not trained on), and pre-context changes what it reads, end to end from ink to text.
@Suite("The shipped en-US model reads real handwriting")
struct ShippedModelReadingTests {
    let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    @Test("each sample's best candidate is its label", arguments: [
        "hello.json", "there.json", "argument.json", "digits.json", "word.inkml",
    ])
    func readsSample(_ name: String) async throws {
        let doc = try sample(name)
        let label = try #require(doc.label)
        let result = try await recognizer.recognize(doc.ink)
        #expect(result.candidates.first?.text == label, "\(result.candidates.prefix(3).map(\.text))")
    }

    @Test("ink of \"there\" after pre-context \"hello\" reads \" there\"; without, or after \"hello \", \"there\"")
    func preContextAddsTheSpace() async throws {
        let ink = try sample("there.json").ink
        func best(_ pre: String) async throws -> String? {
            try await recognizer.recognize(ink, context: RecognitionContext(preContext: pre)).candidates.first?.text
        }
        #expect(try await best("hello") == " there")
        #expect(try await best("") == "there")
        #expect(try await best("hello ") == "there")
    }
}
