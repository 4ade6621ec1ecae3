/// A rectangle in the ink's coordinates (y grows downwards).
public struct BoundingBox: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box around the points of `strokes` of `ink`; a zero box at the origin for no points.
    init(strokes: [Int], of ink: Ink) {
        let spans = strokes.map { StrokeSpan(stroke: $0, points: 0..<ink.strokes[$0].points.count) }
        self = BoundingBox(spans: spans, of: ink) ?? BoundingBox(x: 0, y: 0, width: 0, height: 0)
    }
}
