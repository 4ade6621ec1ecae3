/// The layout of a page of ink: its text lines, found from the strokes' geometry alone (no model).
///
/// ``DigitalInkRecognizer/recognizePage(_:context:)`` reads pages with it; an app can call it to
/// draw or select lines before (or without) recognizing them.
///
/// ```swift
/// for line in try InkLayout.lines(of: ink) {
///     print(line.strokeIndices, line.boundingBox)
/// }
/// ```
///
/// How lines are found (the ink's own scale, the page's skew, lines following drifting baselines,
/// small marks such as i-dots attached to the letter below them) and where it fails (heavily
/// overlapping lines) is described in the "Pages" section of the README. Lines are read left to
/// right unless another ``WritingDirection`` is given (``lines(of:direction:)``).
public enum InkLayout {
    /// One text line of a page: where it is (its strokes and its box), found from the geometry
    /// alone. ``PageRecognitionResult/Line`` is the same line once recognized: where it is and what it
    /// says (its candidates).
    public struct Line: Sendable, Hashable, Codable {
        /// The indices of the line's strokes in the ink, in reading order: word clusters from left
        /// to right (right to left for ``WritingDirection/rightToLeft``), writing order inside each (a
        /// word written later before others in the reading order moves to its place; a dot written at
        /// the end of the line goes back to its word).
        public var strokeIndices: [Int]
        /// The box around the line's points, in the ink's coordinates.
        public var boundingBox: BoundingBox
    }

    /// The most lines one page may have.
    public static let maxLines = 200

    /// The text lines of `ink`, top to bottom, read left to right: ``lines(of:direction:)`` with
    /// ``WritingDirection/leftToRight``. Empty strokes belong to no line; an ink without points has
    /// none.
    ///
    /// - Throws: ``DigitalInkError/InkIssue/tooManyLines(limit:)`` for more than ``maxLines`` lines,
    ///   and the errors of ``Ink/validate(timestamps:)``.
    /// - Complexity: O(n log n + n · L) for n strokes and L lines.
    public static func lines(of ink: Ink) throws(DigitalInkError) -> [Line] {
        try lines(of: ink, direction: .leftToRight)
    }

    /// The text lines of `ink`, top to bottom, each line's strokes in the reading order of
    /// `direction`: word clusters from the line's left end for ``WritingDirection/leftToRight``, from
    /// its right end for ``WritingDirection/rightToLeft`` (the page is read as its mirror image in x
    /// would be read left to right). Boxes are in the ink's own coordinates either way.
    /// ``DigitalInkRecognizer/recognizePage(_:context:)`` passes its model's direction
    /// (``DigitalInkRecognizer/writingDirection``).
    ///
    /// ```swift
    /// let lines = try InkLayout.lines(of: ink, direction: .rightToLeft)  // a Hebrew page
    /// ```
    ///
    /// - Throws: ``DigitalInkError/InkIssue/tooManyLines(limit:)`` for more than ``maxLines`` lines,
    ///   and the errors of ``Ink/validate(timestamps:)``.
    /// - Complexity: O(n log n + n · L) for n strokes and L lines.
    public static func lines(of ink: Ink, direction: WritingDirection) throws(DigitalInkError) -> [Line] {
        try ink.validate()
        return try LineSegmenter(maxLines: maxLines, direction: direction).lines(of: ink)
    }
}
