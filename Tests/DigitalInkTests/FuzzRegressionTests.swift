import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Every input the fuzz targets (Fuzz/) found is a regression test: each is now a typed error.
@Suite("Fuzz findings")
struct FuzzRegressionTests {
    static let directory = Fixtures.url("fuzz")

    static func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    @Test("the ink readers answer each finding with a typed error",
          arguments: ["inkml-processing-instruction-without-data.inkml", "inkml-processing-instruction-without-data-found.inkml",
                      "inkml-xml-error-leak.inkml", "json-read-inkml-invalid-utf8.bin",
                      "inkml-processing-instruction-in-declaration.inkml", "inkml-processing-instruction-after-unclosed-comment.inkml",
                      "inkml-regular-channel-after-intermittent.inkml"])
    func readers(_ name: String) throws {
        let bytes = try Self.data(name)
        #expect(throws: DigitalInkError.self) { _ = try InkDocument.read(bytes, source: name) }
    }

    @Test("an INKLM1 file whose key has more digits than its order is a typed error (it trapped building the index)")
    func lmKeyBeyondItsOrder() throws {
        let bytes = try Self.data("lm-key-beyond-its-order.bin")
        #expect(throws: DigitalInkError.self) { _ = try CharacterNgramModel(data: bytes, name: "lm.bin") }
    }

    @Test("a trace format with a regular channel after the intermittent ones: a typed error, not an index out of range")
    func channelOrder() {
        let text = #"<ink><traceFormat><channel name="X"/><intermittentChannels><channel name="F"/></intermittentChannels><channel name="Y"/></traceFormat><trace>1 2, 3 4</trace></ink>"#
        #expect(throws: DigitalInkError.self) { _ = try InkDocument(inkML: Data(text.utf8)) }
    }

    @Test("a processing instruction is refused before XMLParser sees it (it crashed Foundation)")
    func processingInstruction() {
        for text in ["<ink><?pi?></ink>", "<?pi?><ink/>", "<ink><trace>1 2</trace><?x y?></ink>",
                     "<?xml version=\"1.0\" <ink><?pi?></ink>", " <?xml version=\"1.0\"?><ink/>"] {
            #expect(throws: DigitalInkError.self, "\(text)") { _ = try InkDocument(inkML: Data(text.utf8)) }
        }
        // Also inside comments and CDATA (libxml2 recovers from an unclosed comment and would still
        // parse what follows: a fuzz finding).
        for text in ["<ink><!-- <?pi?> --><trace>1 2, 3 4</trace></ink>", "<ink><annotation><![CDATA[<?x?>]]></annotation><trace>1 2</trace></ink>"] {
            #expect(throws: DigitalInkError.self, "\(text)") { _ = try InkDocument(inkML: Data(text.utf8)) }
        }
        // The XML declaration is fine.
        let declared = #"<?xml version="1.0" encoding="UTF-8"?><ink><trace>1 2, 3 4</trace></ink>"#
        #expect(throws: Never.self) { _ = try InkDocument(inkML: Data(declared.utf8)) }
    }

    @Test("the recognizer target's tiny-writing-area ink is refused as too long")
    func tinyWritingArea() async throws {
        let bytes = try Self.data("recognize-tiny-writing-area-known.bin").dropFirst()  // byte 0 picks the model
        let doc = try InkDocument(jsonData: Data(bytes))
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        await #expect(performing: { try await recognizer.recognize(doc.ink, context: RecognitionContext(writingArea: doc.writingArea)) },
                      throws: { if case DigitalInkError.invalidInk(.tooLong) = $0 { return true } else { return false } })
    }
}
