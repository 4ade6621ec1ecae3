import Foundation

extension InkDocument {
    /// Reads one ink in the project JSON format:
    ///
    /// ```json
    /// {"strokes": [{"points": [{"x": 12.5, "y": 40, "t": 1000}, ...]}, ...],
    ///  "writingArea": {"width": 600, "height": 120}, "preContext": "hello", "id": "any string"}
    /// ```
    ///
    /// `strokes` and, in each stroke, `points` are required, as are `x` and `y` in each point.
    /// `writingArea`, `preContext`, `id`, `label` and `t` are optional (`null` counts as absent);
    /// unknown members are ignored, and when a member appears twice the last one wins. `t` is an
    /// integer number of milliseconds (`1000`, or a whole number written as `1e3`); coordinates are
    /// numbers that fit a finite 32-bit float, read as `Double` first: an ink lying far from 0
    /// (every x or every y beyond ``InkOrigin/translationThreshold``) is moved to its own
    /// ``origin`` so that its 32-bit coordinates keep their precision (see ``InkOrigin``). Two lenient forms are also read: a stroke may be
    /// given directly as its array of points, and a point as `[x, y]` or `[x, y, t]` (as in the
    /// UNIPEN JSON Lines files). A Quick Draw record (`drawing` in the stroke-array form, with
    /// `word` and `key_id`) is read too, `word` becoming the label and `key_id` the id.
    ///
    /// - Parameters:
    ///   - jsonData: UTF-8 JSON text holding exactly one object.
    ///   - source: names the input in errors, such as a file path.
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` naming the line,
    ///   the field path (such as `strokes[2].points[5].x`) and the reason (missing, wrong type,
    ///   NaN or infinite, out of range, a syntax error with its column); then
    ///   ``DigitalInkError/invalidInk(_:)`` when the ink or writing area fails validation.
    /// - Complexity: O(n) in the size of the input.
    public init(jsonData: Data, source: String = "<input>") throws(DigitalInkError) {
        let bytes = [UInt8](jsonData)
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(DigitalInkError) -> InkDocument in
            try InkJSONReader.document(
                bytes: buffer, source: source,
                trailingHint: " (one object was expected; read JSON Lines with InkBatchReader)"
            )
        }
    }

    /// Writes the document in the project JSON format, members in the order `id`, `strokes`,
    /// `writingArea`, `preContext`, `label`; absent optional members and timestamps are left out.
    ///
    /// A nonzero ``origin`` is added back to the coordinates. Compact output (the default) is one
    /// line, fit for JSON Lines. Numbers are written in their
    /// shortest exact form, so ``init(jsonData:source:)`` reads back an equal document.
    ///
    /// - Throws: ``DigitalInkError/invalidInk(_:)`` when the document does not pass
    ///   ``validate()``: what could not be read back is not written.
    /// - Complexity: O(points).
    public func jsonData(prettyPrinted: Bool = false) throws(DigitalInkError) -> Data {
        try validate()
        return Data(InkJSONWriter.document(self, prettyPrinted: prettyPrinted))
    }
}
