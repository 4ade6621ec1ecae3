import Foundation

/// The JSON form of recognition results: what `inkrec recognize --format json` writes and the HTTP
/// server (`Server/`, `inkrec-serve`) answers, built in one place so that both say the same.
///
/// A candidate is `{"text", "score", "confidence", "characters", "words"}`: numbers in their shortest
/// `Float` form (-1.2, not -1.2000000476837158), a value that is not finite as null; `characters` and
/// `words` carry the segments (`{"text", "strokes": [{"stroke", "points": [start, end]}], "box"}`,
/// words also `"characters": [start, end]`; ends exclusive).
public enum RecognitionJSON {
    /// `{"candidates": [...]}` for one ink.
    public static func result(_ result: DigitalInkRecognitionResult) -> [String: Any] {
        ["candidates": result.candidates.map(candidate)]
    }

    /// `{"text": page text, "lines": [{"text", "strokes", "box", "direction", "candidates"}]}`, where
    /// `direction` is the line's reading direction, `"ltr"` or `"rtl"` (``WritingDirection``).
    public static func page(_ result: PageRecognitionResult) -> [String: Any] {
        ["text": result.text,
         "lines": result.lines.map { line -> [String: Any] in
             ["text": line.text, "strokes": line.strokeIndices, "box": box(line.boundingBox),
              "direction": line.direction.rawValue, "candidates": line.candidates.map(candidate)]
         }]
    }

    /// `{"lines": [{"strokes", "box"}]}`: a page's lines found without recognizing them
    /// (``InkLayout/lines(of:)``), the same keys as ``page(_:)`` without the texts.
    public static func layout(_ lines: [InkLayout.Line]) -> [String: Any] {
        ["lines": lines.map { ["strokes": $0.strokeIndices, "box": box($0.boundingBox)] as [String: Any] }]
    }

    /// One candidate (see the type's description).
    public static func candidate(_ c: DigitalInkRecognitionCandidate) -> [String: Any] {
        var o: [String: Any] = ["text": c.text, "score": number(c.score)]
        if let confidence = c.confidence { o["confidence"] = number(confidence) }
        if let segments = c.segments {
            o["characters"] = segments.characters.map { ["text": $0.text, "strokes": spans($0.strokes), "box": box($0.boundingBox)] }
            o["words"] = segments.words.map { ["text": $0.text, "characters": [$0.characters.lowerBound, $0.characters.upperBound],
                                               "strokes": spans($0.strokes), "box": box($0.boundingBox)] }
        }
        return o
    }

    /// One line of JSON, keys sorted. An object that cannot be serialized (it cannot happen with the
    /// values above, but an answer is never lost) becomes an error object that keeps its id and line.
    public static func line(_ object: [String: Any]) -> String {
        if let text = _FastJSONWriter.serialize(object) { return text }  // the same text, faster
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) {
            return String(decoding: data, as: UTF8.self)
        }
        var fallback: [String: Any] = ["error": "the answer could not be written as JSON"]
        fallback["id"] = object["id"] as? String
        fallback["line"] = object["line"] as? Int
        let data = (try? JSONSerialization.data(withJSONObject: fallback, options: [.sortedKeys]))
            ?? Data(#"{"error":"the answer could not be written as JSON"}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `[{"stroke": 0, "points": [start, end]}]` (end exclusive).
    static func spans(_ spans: [StrokeSpan]) -> [[String: Any]] {
        spans.map { ["stroke": $0.stroke, "points": [$0.points.lowerBound, $0.points.upperBound]] }
    }

    /// `{"x", "y", "width", "height"}`, or null.
    static func box(_ b: BoundingBox?) -> Any {
        guard let b else { return NSNull() }
        return ["x": number(b.x), "y": number(b.y), "width": number(b.width), "height": number(b.height)]
    }

    /// The shortest decimal form of `v` as a JSON number, or null when it is not finite.
    static func number(_ v: Float) -> Any { v.isFinite ? (Double("\(v)") ?? Double(v)) : NSNull() }
}
