/// Where an ink's coordinates were measured from, when a reader moved the ink to its own origin.
///
/// ``StrokePoint`` stores 32-bit float coordinates, which hold about 7 significant digits: at
/// 10⁹ their step is 64 units, so an ink written far from 0 (a tablet or map coordinate space
/// with a large offset) would lose its shape. When every point of an ink lies farther than
/// ``InkOrigin/translationThreshold`` from 0 along x or along y, the readers parse the coordinates
/// as `Double`, subtract the whole-number minimum x and minimum y, and keep that offset in
/// ``InkDocument/origin``; the writers add it back. Inks with ordinary coordinates are not moved
/// and have the ``zero`` origin.
public struct InkOrigin: Sendable, Hashable, Codable {
    /// The x coordinate, in the file, of the ink's x = 0.
    public var x: Double
    /// The y coordinate, in the file, of the ink's y = 0.
    public var y: Double

    /// An origin at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// No translation: the ink's coordinates are those of the file.
    public static let zero = InkOrigin(x: 0, y: 0)

    /// Whether this is the ``zero`` origin.
    public var isZero: Bool { x == 0 && y == 0 }

    /// How far from 0 (2¹⁶) all of an ink's x or all of its y values must be for a reader to move
    /// the ink to its own origin. Below it a float's step is at most 1/128.
    public static let translationThreshold: Double = 65536
}

/// Collects the `Double` coordinates of an ink as a reader goes, and moves the ink to its own
/// origin at the end when it lies far from 0 (see ``InkOrigin``).
///
/// Points must be added in the order the ink's strokes and points will have.
struct WideCoordinates {
    /// x0, y0, x1, y1, ... in point order.
    private var values: [Double] = []

    mutating func add(x: Double, y: Double) {
        values.append(x)
        values.append(y)
    }

    /// Drops the last `count` points added (a member read twice, where the last one wins).
    mutating func removeLast(_ count: Int) {
        values.removeLast(Swift.min(values.count, 2 * count))
    }

    /// The origin the ink is moved to, axis by axis: on an axis where every coordinate is farther
    /// from 0 than ``InkOrigin/translationThreshold``, the rounded minimum, unless the coordinates
    /// moved there would overflow `Float` (an ink spanning the whole range stays where it is); 0 on
    /// the other axis. O(points).
    var origin: InkOrigin {
        guard !values.isEmpty else { return .zero }
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        var nearest = (Double.infinity, Double.infinity)
        var k = 0
        while k < values.count {
            let x = values[k], y = values[k + 1]
            lo = (Swift.min(lo.0, x), Swift.min(lo.1, y))
            hi = (Swift.max(hi.0, x), Swift.max(hi.1, y))
            nearest = (Swift.min(nearest.0, abs(x)), Swift.min(nearest.1, abs(y)))
            k += 2
        }
        func shift(_ lo: Double, _ hi: Double, _ nearest: Double) -> Double {
            guard nearest > InkOrigin.translationThreshold, lo.isFinite, hi.isFinite,
                  hi - lo.rounded() < Double(Float.greatestFiniteMagnitude) else { return 0 }
            return lo.rounded()
        }
        return InkOrigin(x: shift(lo.0, hi.0, nearest.0), y: shift(lo.1, hi.1, nearest.1))
    }

    /// Moves `strokes` to ``origin`` (recomputing each coordinate from its `Double` value) and
    /// returns it; leaves them as they are when the origin is zero. O(points).
    func translate(_ strokes: inout [Stroke]) -> InkOrigin {
        let origin = origin
        guard !origin.isZero else { return .zero }
        var k = 0
        for s in strokes.indices {
            for p in strokes[s].points.indices {
                strokes[s].points[p].x = Float(values[k] - origin.x)
                strokes[s].points[p].y = Float(values[k + 1] - origin.y)
                k += 2
            }
        }
        return origin
    }
}
