/// A piece of handwriting: strokes in the order they were written.
///
/// An empty ink (or one whose strokes are all empty) is legal; recognizing it returns no
/// candidates.
public struct Ink: Sendable, Hashable, Codable {
    /// The most points one ink may hold (about 15 minutes of writing at 100 points per second).
    public static let maxPointCount = 100_000

    public var strokes: [Stroke]

    public init(strokes: [Stroke]) {
        self.strokes = strokes
    }

    /// Total number of points over all strokes. O(strokes).
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// True when no stroke has a point.
    public var isEmpty: Bool { strokes.allSatisfy { $0.points.isEmpty } }

    /// How ``validate(timestamps:)`` treats a timestamp that is earlier than the one before it in
    /// its stroke.
    public enum TimestampValidation: Sendable, Hashable {
        /// Accept it. Recorded corpora have such glitches, and the recognizer does not use
        /// timestamps; ``firstDecreasingTimestamp`` finds one for a warning. The default.
        case lenient
        /// Reject the ink with ``DigitalInkError/InkIssue/decreasingTimestamp(stroke:point:)``.
        case strict
    }

    /// Checks that every coordinate is finite and that the ink has at most ``maxPointCount`` points;
    /// with `timestamps: .strict`, also that timestamps do not decrease inside a stroke. O(points).
    ///
    /// Decreasing timestamps are accepted by default: real recordings have them (a clock adjusted
    /// while writing, points merged from two sources), and recognition ignores timestamps.
    /// ``repairingTimestamps()`` repairs them on request.
    public func validate(timestamps: TimestampValidation = .lenient) throws(DigitalInkError) {
        let count = pointCount
        if count > Ink.maxPointCount {
            throw .invalidInk(.tooManyPoints(count: count, limit: Ink.maxPointCount))
        }
        for (s, stroke) in strokes.enumerated() {
            for (p, point) in stroke.points.enumerated() {
                guard point.x.isFinite, point.y.isFinite else {
                    throw .invalidInk(.nonFiniteCoordinate(stroke: s, point: p))
                }
            }
        }
        if timestamps == .strict, let (s, p) = firstDecreasingTimestamp {
            throw .invalidInk(.decreasingTimestamp(stroke: s, point: p))
        }
    }

    /// The first point (stroke index, point index) whose timestamp is earlier than the last
    /// timestamp before it in its stroke, or nil when timestamps never decrease. Points without a
    /// timestamp are skipped. O(points).
    public var firstDecreasingTimestamp: (stroke: Int, point: Int)? {
        for (s, stroke) in strokes.enumerated() {
            var last: Int64? = nil
            for (p, point) in stroke.points.enumerated() {
                guard let t = point.t else { continue }
                if let l = last, t < l { return (s, p) }
                last = t
            }
        }
        return nil
    }

    /// A copy in which every timestamp that went backwards inside its stroke is raised to the
    /// previous one. Coordinates are left as they are. O(points).
    public func repairingTimestamps() -> Ink {
        var copy = self
        for s in copy.strokes.indices {
            var last: Int64? = nil
            for p in copy.strokes[s].points.indices {
                guard let t = copy.strokes[s].points[p].t else { continue }
                if let l = last, t < l {
                    copy.strokes[s].points[p].t = l
                } else {
                    last = t
                }
            }
        }
        return copy
    }
}
