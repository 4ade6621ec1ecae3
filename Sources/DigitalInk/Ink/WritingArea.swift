/// The size of the area the user writes in, in the ink's units.
///
/// The recognizer assumes the area holds one line of text: it bounds its line-height estimate
/// by the area's height (between 0.3 and 0.8 of it). Both sides must be finite and positive.
public struct WritingArea: Sendable, Hashable, Codable {
    public var width: Float
    public var height: Float

    public init(width: Float, height: Float) {
        self.width = width
        self.height = height
    }

    /// Throws ``DigitalInkError/invalidInk(_:)`` unless both sides are finite and positive.
    public func validate() throws(DigitalInkError) {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw .invalidInk(.invalidWritingArea(width: width, height: height))
        }
    }
}
