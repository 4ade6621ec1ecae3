import Foundation

extension InkDocument {
    /// Reads the compact stroke-array form used by Google's handwriting input API and by the Quick
    /// Draw raw and simplified data: a JSON array of strokes, each `[[xs...], [ys...]]` or
    /// `[[xs...], [ys...], [ts...]]` with arrays of equal length.
    ///
    /// ```json
    /// [[[10, 12, 15], [40, 41, 43], [0, 16, 33]], [[20, 21], [40, 50]]]
    /// ```
    ///
    /// Coordinates are read as `Double`; an ink lying far from 0 is moved to its own ``origin``
    /// (see ``InkOrigin``). The document has no id, writing area, pre-context or label. (A Quick Draw NDJSON record,
    /// an object with a `drawing` member, is read by ``init(jsonData:source:)``.)
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` with a field path
    ///   such as `[3][1][4]` (stroke 3, its ys, value 4); when the lengths of a stroke's arrays
    ///   disagree the field is the stroke (`[3]`) and the reason names its index and the lengths.
    ///   ``DigitalInkError/invalidInk(_:)`` when the ink fails validation.
    /// - Complexity: O(n) in the size of the input.
    public init(strokeArrays data: Data, source: String = "<input>") throws(DigitalInkError) {
        let bytes = [UInt8](data)
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(DigitalInkError) -> InkDocument in
            try InkJSONReader.strokeArrays(bytes: buffer, source: source)
        }
    }

    /// Writes the ink in the compact stroke-array form, on one line. A stroke gets its `ts` array
    /// only when every one of its points has a timestamp. The id, writing area, pre-context and
    /// label are not part of this form and are dropped; a nonzero ``origin`` is added back to the
    /// coordinates.
    ///
    /// - Throws: ``DigitalInkError/invalidInk(_:)`` when the ink does not pass ``Ink/validate(timestamps:)``.
    /// - Complexity: O(points).
    public func strokeArraysData() throws(DigitalInkError) -> Data {
        try ink.validate()
        return Data(InkJSONWriter.strokeArrays(ink, origin: origin))
    }
}
