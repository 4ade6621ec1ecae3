import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Format: detection and files")
struct FormatSnifferTests {
    @Test func detectsByContent() {
        #expect(InkFormat.detect(Data("  \n{\"strokes\": []}".utf8)) == .json)
        #expect(InkFormat.detect(Data("[[[1],[2]]]".utf8)) == .strokeArrays)
        #expect(InkFormat.detect(Data("\u{FEFF}<?xml version=\"1.0\"?><ink/>".utf8)) == .inkML)
        #expect(InkFormat.detect(Data("hello".utf8)) == nil)
        #expect(InkFormat.detect(Data()) == nil)
    }

    @Test func readsEveryFixtureToTheSameInk() throws {
        let base = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/formats")
        let fromJSON = try InkDocument.read(contentsOf: base.appendingPathComponent("hello.json"))
        let fromInkML = try InkDocument.read(contentsOf: base.appendingPathComponent("hello.inkml"))
        let fromArrays = try InkDocument.read(contentsOf: base.appendingPathComponent("hello.strokes.json"))
        #expect(fromJSON.id == "hello-fixture")
        #expect(fromJSON.writingArea == WritingArea(width: 60, height: 30))
        #expect(fromJSON.ink.pointCount == 9)
        #expect(fromInkML.ink == fromJSON.ink)
        #expect(fromArrays.ink == fromJSON.ink)
    }

    @Test func readsWrittenFilesOfEachFormat() throws {
        for data in [try sampleDocument.jsonData(), try sampleDocument.inkMLData(), try sampleDocument.jsonData(prettyPrinted: true)] {
            let url = try temporaryFile(data)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(try InkDocument.read(contentsOf: url) == sampleDocument)
        }
    }

    @Test func fileErrorsAreTyped() throws {
        let path = "/nonexistent/ink.json"
        #expect(malformedInput { try InkDocument.read(contentsOf: URL(fileURLWithPath: path)) }
            == MalformedInput(source: path, line: nil, field: nil, reason: "file not found"))
        let dir = FileManager.default.temporaryDirectory
        #expect(malformedInput { try InkDocument.read(contentsOf: dir) }?.reason == "is a directory, not a file")
        let url = try temporaryFile(Data("strokes: 1".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let e = malformedInput { try InkDocument.read(contentsOf: url) }
        #expect(e?.source == url.path)
        #expect(e?.reason.hasPrefix("unrecognized format") == true)
        #expect(malformedInput { try InkDocument.read(Data(" \n".utf8)) }?.reason == "empty input")
    }

    @Test func jsonLinesGivenToTheSingleReaderGetsAHint() {
        let e = malformedInput { try InkDocument.read(Data("{\"strokes\":[]}\n{\"strokes\":[]}\n".utf8)) }
        #expect(e?.line == 2)
        #expect(e?.reason.contains("InkBatchReader") == true)
    }
}
