/// One sampled pen position.
///
/// Coordinates are in any unit, the same on both axes; `y` grows downwards, as on a screen.
/// `t` is an optional timestamp in milliseconds (any origin). The recognizer does not need
/// timestamps; decreasing timestamps inside a stroke are accepted unless validated strictly (see
/// ``Ink/validate(timestamps:)``).
public struct StrokePoint: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var t: Int64?

    public init(x: Float, y: Float, t: Int64? = nil) {
        self.x = x
        self.y = y
        self.t = t
    }
}
