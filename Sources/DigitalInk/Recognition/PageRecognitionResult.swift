/// The result of ``DigitalInkRecognizer/recognizePage(_:context:)``: the page's lines, top to bottom
/// (``DigitalInkRecognizer/recognizePageLines(_:context:)`` gives the same lines one by one).
public struct PageRecognitionResult: Sendable, Hashable, Codable {
    /// One line of the page, recognized: where it is (as ``InkLayout/Line`` gives it: its strokes in
    /// reading order and its box) and what it says (its candidates).
    public struct Line: Sendable, Hashable, Codable {
        /// The indices of the line's strokes in the ink that was recognized, in the order they were
        /// read (reading order, which may differ from writing order).
        public var strokeIndices: [Int]
        /// The box around the line's points, in the ink's coordinates.
        public var boundingBox: BoundingBox
        /// The line's candidates, best first, as ``DigitalInkRecognizer/recognize(_:context:)`` gives
        /// them for the line's strokes alone.
        public var candidates: [DigitalInkRecognitionCandidate]
        /// The direction the line was read in: the model's ``DigitalInkRecognizer/writingDirection``.
        /// It decided the order of ``strokeIndices`` (word clusters from the line's left end, or from
        /// its right end), and says how to show ``text`` (a right-to-left paragraph). Decoding JSON
        /// without it (written before it existed) gives ``WritingDirection/leftToRight``.
        public var direction: WritingDirection

        /// A line read left to right.
        public init(strokeIndices: [Int], boundingBox: BoundingBox, candidates: [DigitalInkRecognitionCandidate]) {
            self.init(strokeIndices: strokeIndices, boundingBox: boundingBox, candidates: candidates, direction: .leftToRight)
        }

        /// A line read in `direction`.
        public init(strokeIndices: [Int], boundingBox: BoundingBox, candidates: [DigitalInkRecognitionCandidate],
                    direction: WritingDirection) {
            self.strokeIndices = strokeIndices
            self.boundingBox = boundingBox
            self.candidates = candidates
            self.direction = direction
        }

        /// Decodes a line; a missing `direction` (JSON written before lines had one) is
        /// ``WritingDirection/leftToRight``.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            strokeIndices = try c.decode([Int].self, forKey: .strokeIndices)
            boundingBox = try c.decode(BoundingBox.self, forKey: .boundingBox)
            candidates = try c.decode([DigitalInkRecognitionCandidate].self, forKey: .candidates)
            direction = try c.decodeIfPresent(WritingDirection.self, forKey: .direction) ?? .leftToRight
        }

        /// The best candidate's text, or "" when the line has no candidates.
        public var text: String { candidates.first?.text ?? "" }
    }

    /// The lines, top to bottom. Empty for an ink without points.
    public var lines: [Line]

    public init(lines: [Line]) { self.lines = lines }

    /// The page's text: the lines' best candidates joined by "\n".
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}
