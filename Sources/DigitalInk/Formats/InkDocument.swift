/// An ink together with what was stored alongside it in a file: an identifier, the writing area,
/// the pre-context and a transcription label.
///
/// `InkDocument` is what the format readers produce and the writers consume:
///
/// - the project JSON format: ``init(jsonData:source:)`` and ``jsonData(prettyPrinted:)``;
/// - JSON Lines, one document a line: ``InkBatchReader``;
/// - W3C InkML: ``init(inkML:source:)`` and ``inkMLData()``;
/// - the compact stroke-array form of Google's handwriting input and Quick Draw:
///   ``init(strokeArrays:source:)`` and ``strokeArraysData()``;
/// - any of these, chosen by content: ``read(contentsOf:)`` and ``read(_:source:)``.
///
/// Every reader validates what it read: malformed text throws
/// ``DigitalInkError/malformedInput(source:line:field:reason:)`` and well-formed but invalid ink
/// (non-finite coordinates, too many points, a bad writing area) throws
/// ``DigitalInkError/invalidInk(_:)``. Coordinates are parsed as `Double`; an ink lying far from 0
/// is moved to its own ``origin`` so that its 32-bit float coordinates keep their precision (see
/// ``InkOrigin``), and the writers add the origin back.
///
/// Its `Codable` conformance uses the project JSON layout (`strokes`, `writingArea`, `preContext`,
/// `id`, `label` at the top level), so an `InkDocument` can be embedded in other `Codable` types.
public struct InkDocument: Sendable, Hashable, Codable {
    /// An identifier of the ink in its collection, if the file had one.
    public var id: String?
    /// The strokes.
    public var ink: Ink
    /// The size of the area the ink was written in, if known.
    public var writingArea: WritingArea?
    /// The text before the ink, if known.
    public var preContext: String?
    /// The transcription of the ink (ground truth), if known: the JSON `label` field, or InkML's
    /// `<annotation type="truth">`.
    public var label: String?
    /// Where the ink's coordinates are measured from: ``InkOrigin/zero`` unless a reader moved an
    /// ink lying far from 0 to its own origin to keep the precision of its 32-bit float
    /// coordinates (see ``InkOrigin``). A point's coordinates in the file are its coordinates plus
    /// the origin; the writers add it back.
    public var origin: InkOrigin

    /// A document holding `ink` and whatever else is known about it.
    public init(id: String? = nil, ink: Ink, writingArea: WritingArea? = nil, preContext: String? = nil, label: String? = nil,
                origin: InkOrigin = .zero) {
        self.id = id
        self.ink = ink
        self.writingArea = writingArea
        self.preContext = preContext
        self.label = label
        self.origin = origin
    }

    /// The recognition context stored with the ink: its pre-context (empty when absent) and
    /// writing area.
    public var context: RecognitionContext {
        RecognitionContext(preContext: preContext ?? "", writingArea: writingArea)
    }

    /// Validates the ink and the writing area (see ``Ink/validate(timestamps:)`` and
    /// ``WritingArea/validate()``). O(points).
    public func validate() throws(DigitalInkError) {
        try ink.validate()
        try writingArea?.validate()
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case id, strokes, writingArea, preContext, label
    }

    /// The `Double` form of a stroke, for inks far from 0 (see ``InkOrigin``).
    private struct WideStroke: Codable {
        struct Point: Codable {
            var x: Double
            var y: Double
            var t: Int64?
        }
        var points: [Point]
    }

    /// Decodes the project JSON layout and validates the result; invalid ink throws
    /// ``DigitalInkError/invalidInk(_:)``. An ink far from 0 is moved to its own ``origin``, as
    /// the readers do.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var strokes = try c.decode([Stroke].self, forKey: .strokes)
        var wide = WideCoordinates()
        for stroke in try c.decode([WideStroke].self, forKey: .strokes) {
            for p in stroke.points { wide.add(x: p.x, y: p.y) }
        }
        let origin = wide.translate(&strokes)
        self.init(
            id: try c.decodeIfPresent(String.self, forKey: .id),
            ink: Ink(strokes: strokes),
            writingArea: try c.decodeIfPresent(WritingArea.self, forKey: .writingArea),
            preContext: try c.decodeIfPresent(String.self, forKey: .preContext),
            label: try c.decodeIfPresent(String.self, forKey: .label),
            origin: origin
        )
        try validate()
    }

    /// Encodes the project JSON layout; absent optional members are left out. A nonzero
    /// ``origin`` is added back to the coordinates.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        if origin.isZero {
            try c.encode(ink.strokes, forKey: .strokes)
        } else {
            let strokes = ink.strokes.map { stroke in
                WideStroke(points: stroke.points.map { .init(x: Double($0.x) + origin.x, y: Double($0.y) + origin.y, t: $0.t) })
            }
            try c.encode(strokes, forKey: .strokes)
        }
        try c.encodeIfPresent(writingArea, forKey: .writingArea)
        try c.encodeIfPresent(preContext, forKey: .preContext)
        try c.encodeIfPresent(label, forKey: .label)
    }
}
