/// The points drawn between one pen-down and the next pen-up, in the order they were sampled.
///
/// An empty stroke is legal input; preprocessing ignores it.
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [StrokePoint]

    public init(points: [StrokePoint]) {
        self.points = points
    }
}
