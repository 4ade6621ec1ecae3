import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// The parts of a `.malformedInput` error, for assertions.
struct MalformedInput: Equatable {
    var source: String
    var line: Int?
    var field: String?
    var reason: String
}

/// Runs `body` and returns its `.malformedInput` error; nil (with a recorded issue) when it does
/// not throw one.
func malformedInput<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> MalformedInput? {
    do {
        _ = try body()
        Issue.record("expected a malformedInput error, but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        if case .malformedInput(let source, let line, let field, let reason)? = error as? DigitalInkError {
            return MalformedInput(source: source, line: line, field: field, reason: reason)
        }
        Issue.record("expected a malformedInput error, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Runs `body` and returns its `.invalidInk` issue; nil (with a recorded issue) otherwise.
func invalidInk<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> DigitalInkError.InkIssue? {
    do {
        _ = try body()
        Issue.record("expected an invalidInk error, but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        if case .invalidInk(let issue)? = error as? DigitalInkError { return issue }
        Issue.record("expected an invalidInk error, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Parses project JSON given as a string.
func json(_ text: String, source: String = "<input>") throws(DigitalInkError) -> InkDocument {
    try InkDocument(jsonData: Data(text.utf8), source: source)
}

/// A document with three strokes, timestamps, every optional member and text needing escapes.
let sampleDocument = InkDocument(
    id: "sample/1 \"quoted\" & <tagged>",
    ink: Ink(strokes: [
        Stroke(points: [
            StrokePoint(x: 12.5, y: 40, t: 1000), StrokePoint(x: 13.25, y: 41.125, t: 1016),
            StrokePoint(x: -0.1, y: 1e-5, t: 1033),
        ]),
        Stroke(points: [StrokePoint(x: 100, y: 3.4028235e38, t: 1100)]),
        Stroke(points: [StrokePoint(x: 0.3, y: 0.7, t: 1200), StrokePoint(x: 7, y: 123456.79, t: 1200)]),
    ]),
    writingArea: WritingArea(width: 600, height: 120),
    preContext: "hello\n\twörld 👋 ",
    label: "a < b && c"
)

/// Writes `contents` to a new temporary file; the caller removes it.
func temporaryFile(_ contents: Data, suffix: String = "") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("digitalink-formats-\(UUID().uuidString)\(suffix)")
    try contents.write(to: url)
    return url
}
