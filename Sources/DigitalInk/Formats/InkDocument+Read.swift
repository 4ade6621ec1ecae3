import Foundation

extension InkDocument {
    /// Reads an ink file in any supported format, chosen by content (see ``InkFormat/detect(_:)``):
    /// a JSON object, the stroke-array form, or InkML.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` with the path as
    ///   source: reason "file not found" when there is no such file, "is a directory, not a file",
    ///   "cannot read file: ..." for other file-system errors, "unrecognized format: ..." when the
    ///   content matches no format, or the format reader's own error; then
    ///   ``DigitalInkError/invalidInk(_:)`` for invalid ink.
    /// - Complexity: O(file size); the file is read whole (use ``InkBatchReader`` for JSON Lines).
    public static func read(contentsOf url: URL) throws(DigitalInkError) -> InkDocument {
        let data = try InkFileAccess.contents(of: url)
        return try read(data, source: url.path)
    }

    /// Reads ink data in any supported format, chosen by content (see ``InkFormat/detect(_:)``).
    ///
    /// - Throws: as the reader of the detected format; "unrecognized format: ..." when none fits.
    /// - Complexity: O(n) in the size of the data.
    public static func read(_ data: Data, source: String = "<input>") throws(DigitalInkError) -> InkDocument {
        switch InkFormat.detect(data) {
        case .json: return try InkDocument(jsonData: data, source: source)
        case .strokeArrays: return try InkDocument(strokeArrays: data, source: source)
        case .inkML: return try InkDocument(inkML: data, source: source)
        case nil:
            let reason = data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
                ? "empty input"
                : "unrecognized format: expected a JSON object, a JSON array of strokes, or InkML"
            throw .malformedInput(source: source, line: nil, field: nil, reason: reason)
        }
    }
}
