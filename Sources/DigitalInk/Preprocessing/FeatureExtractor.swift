/// Turns an ``Ink`` into the network's input features (schemes `resampled-v2` and `resampled-v1`).
///
/// The reference implementation is `Training/inkrec_training/features.py`; golden fixtures pin the
/// two together. All arithmetic is in `Double`; features are stored as `Float`.
///
/// 1. Empty strokes are dropped; an ink without points has no features.
/// 2. Line height `h`: `q95(y) - q05(y)` over all points (linear-interpolation quantiles), floored
///    - `resampled-v2` (text models): by `0.1 × median stroke width`, the median over strokes of
///      `max(x) - min(x)`, so that a dash still gets a scale while the length of a line of text
///      does not change it;
///    - `resampled-v1` (the shapes model): by `0.25 * (q95(x) - q05(x))`, a quarter of the ink's width;
///
///    then, with a writing area of height `H`, clamped to `[0.3 H, 0.8 H]`; `1` if not positive.
/// 3. Every stroke is resampled at equal arc-length spacing `s = h / 4`: consecutive duplicate points
///    removed, `n = max(1, round(L / s))` segments (round half to even), `n + 1` points, both ends kept.
/// 4. Four features per resampled point: `[dx, dy, penUp, yRel]` — inside a stroke the step from the
///    previous point divided by `s`; at the start of a later stroke the jump from the previous stroke's
///    end divided by `h`, clipped to ±5; zero at the very first point. `penUp` is 1 on the first point
///    of every stroke. `yRel = (y - c) / h` clipped to ±2, with `c` the mid-point of `q05(y)` and `q95(y)`.
///
/// The number of frames (resampled points) follows the pen's path divided by the line height, not
/// the number of points, so a hostile or mistaken ink (a writing area far smaller than the ink, two
/// points a million line heights apart) could ask for billions. Before resampling, the frames are
/// counted and the ink is refused with ``DigitalInkError/InkIssue/tooLong(frames:limit:)`` when they
/// exceed ``maxFrames`` or ``maxFramesPerPoint`` × the number of points, whichever is smaller.
///
/// Complexity: O(P log P) for P points (the quantiles sort the coordinates); at most
/// `min(maxFrames, maxFramesPerPoint · P)` frames.
@_spi(Engine) public struct FeatureExtractor: Sendable, Hashable {
    /// A feature scheme, as `config.json` names it (`features.scheme`).
    public enum Scheme: String, Sendable, Hashable, Codable, CaseIterable {
        /// Line height floored by a quarter of the ink's width (shapes).
        case resampledV1 = "resampled-v1"
        /// Line height floored by a tenth of the median stroke width (text).
        case resampledV2 = "resampled-v2"
    }

    public static let featureDimension = 4

    public var scheme: Scheme = .resampledV2
    public var stepsPerLineHeight: Double = 4
    public var jumpClip: Double = 5
    public var yRelClip: Double = 2
    public var writingAreaMin: Double = 0.3
    public var writingAreaMax: Double = 0.8
    /// `resampled-v1`: the line height is at least this fraction of the ink's width.
    public var widthFloor: Double = 0.25
    /// `resampled-v2`: the line height is at least this fraction of the median stroke width.
    public var strokeWidthFloor: Double = 0.1

    /// The most frames one ink may resample to: 16,384 (about 4,000 line heights of pen travel,
    /// far more than a line of text; memory for the network's activations stays under 60 MB).
    public var maxFrames: Int = 16_384
    /// The most frames per input point: 64 (a straight stroke of two points may be 32 line heights
    /// long before it is refused).
    public var maxFramesPerPoint: Int = 64

    public init(scheme: Scheme = .resampledV2, stepsPerLineHeight: Double = 4) {
        self.scheme = scheme
        self.stepsPerLineHeight = stepsPerLineHeight
    }

    /// The features of `ink`, one row of ``featureDimension`` values per resampled point.
    ///
    /// - Throws: ``DigitalInkError/InkIssue/tooLong(frames:limit:)`` when the ink would resample to
    ///   more frames than the limits allow (see the type's description).
    public func features(for ink: Ink, writingArea: WritingArea? = nil) throws(DigitalInkError) -> FeatureMatrix {
        var origins: [FrameOrigin]? = nil
        return try features(for: ink, writingArea: writingArea, origins: &origins)
    }

    /// Where a frame (a resampled point) comes from: the index of its stroke in the ink and of the
    /// input point nearest to it along the stroke.
    public struct FrameOrigin: Sendable, Hashable {
        public var stroke: Int32
        public var point: Int32
    }

    /// ``features(for:writingArea:)``, and, when `origins` is not nil, the origin of every frame
    /// (one per row), for aligning the network's output with the ink.
    public func features(for ink: Ink, writingArea: WritingArea?, origins: inout [FrameOrigin]?) throws(DigitalInkError) -> FeatureMatrix {
        let strokeIndices = ink.strokes.indices.filter { !ink.strokes[$0].points.isEmpty }
        let strokes = strokeIndices.map { ink.strokes[$0] }
        guard !strokes.isEmpty else { return FeatureMatrix(rows: 0, columns: Self.featureDimension) }
        var xs: [Double] = []
        var ys: [Double] = []
        var widths: [Double] = []
        xs.reserveCapacity(ink.pointCount)
        ys.reserveCapacity(ink.pointCount)
        widths.reserveCapacity(strokes.count)
        for stroke in strokes {
            var lo = Double.infinity, hi = -Double.infinity
            for p in stroke.points {
                let x = Double(p.x)
                xs.append(x)
                ys.append(Double(p.y))
                lo = min(lo, x)
                hi = max(hi, x)
            }
            widths.append(hi - lo)
        }
        xs.sort()
        ys.sort()
        widths.sort()
        let h = lineHeight(sortedX: xs, sortedY: ys, sortedStrokeWidths: widths,
                           writingAreaHeight: writingArea.map { Double($0.height) })
        let s = h / stepsPerLineHeight
        let c = (Self.quantile(sorted: ys, 0.05) + Self.quantile(sorted: ys, 0.95)) / 2

        // Count the frames in Double before any conversion to Int or allocation.
        var frames = 0.0
        for stroke in strokes { frames += Self.resampledCount(stroke.points, spacing: s) }
        let limit = min(maxFrames, maxFramesPerPoint.multipliedReportingOverflow(by: max(1, xs.count)).partialValue)
        guard frames <= Double(limit) else { throw .invalidInk(.tooLong(frames: frames, limit: limit)) }

        var out: [Float] = []
        var resampled: [(Double, Double)] = []
        var previousEnd: (Double, Double)? = nil
        var pointIndices: [Int]? = origins == nil ? nil : []
        if origins != nil { origins = [] }
        for (j, stroke) in strokes.enumerated() {
            resampled.removeAll(keepingCapacity: true)
            pointIndices?.removeAll(keepingCapacity: true)
            Self.resample(stroke.points, spacing: s, into: &resampled, pointIndices: &pointIndices)
            if let pointIndices {
                let index = Int32(strokeIndices[j])
                origins!.append(contentsOf: pointIndices.map { FrameOrigin(stroke: index, point: Int32($0)) })
            }
            for (k, p) in resampled.enumerated() {
                var dx = 0.0, dy = 0.0
                if k > 0 {
                    dx = (p.0 - resampled[k - 1].0) / s
                    dy = (p.1 - resampled[k - 1].1) / s
                } else if let e = previousEnd {
                    dx = Self.clip((p.0 - e.0) / h, jumpClip)
                    dy = Self.clip((p.1 - e.1) / h, jumpClip)
                }
                out.append(Float(dx))
                out.append(Float(dy))
                out.append(k == 0 ? 1 : 0)
                out.append(Float(Self.clip((p.1 - c) / h, yRelClip)))
            }
            previousEnd = resampled.last
        }
        return FeatureMatrix(rows: out.count / Self.featureDimension, columns: Self.featureDimension, values: out)
    }

    /// The line height used to normalize an ink (see the type's description).
    func lineHeight(sortedX: [Double], sortedY: [Double], sortedStrokeWidths: [Double],
                    writingAreaHeight: Double?) -> Double {
        var est = Self.quantile(sorted: sortedY, 0.95) - Self.quantile(sorted: sortedY, 0.05)
        switch scheme {
        case .resampledV1:
            est = max(est, widthFloor * (Self.quantile(sorted: sortedX, 0.95) - Self.quantile(sorted: sortedX, 0.05)))
        case .resampledV2:
            est = max(est, strokeWidthFloor * Self.quantile(sorted: sortedStrokeWidths, 0.5))
        }
        if let H = writingAreaHeight, H > 0 {
            est = min(max(est, writingAreaMin * H), writingAreaMax * H)
        }
        return est > 0 ? est : 1
    }

    /// Linear-interpolation quantile of sorted values (numpy's default). O(1).
    static func quantile(sorted v: [Double], _ q: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let pos = q * Double(v.count - 1)
        let lo = Int(pos.rounded(.down))
        let hi = min(lo + 1, v.count - 1)
        return v[lo] + (v[hi] - v[lo]) * (pos - Double(lo))
    }

    static func clip(_ v: Double, _ limit: Double) -> Double { min(max(v, -limit), limit) }

    /// The number of points ``resample(_:spacing:into:pointIndices:)`` makes of `points`, in Double (it may be
    /// huge or infinite for a degenerate spacing). O(points).
    static func resampledCount(_ points: [StrokePoint], spacing: Double) -> Double {
        var total = 0.0, unique = 0
        var last: (Double, Double)? = nil
        for p in points {
            let q = (Double(p.x), Double(p.y))
            if let l = last {
                if l == q { continue }
                let dx = q.0 - l.0, dy = q.1 - l.1
                total += (dx * dx + dy * dy).squareRoot()
            }
            last = q
            unique += 1
        }
        if unique <= 1 { return Double(unique) }
        return max(1, (total / spacing).rounded(.toNearestOrEven)) + 1
    }

    /// Equal arc-length resampling of one stroke. O(points). The caller checks
    /// ``resampledCount(_:spacing:)`` first.
    /// With `pointIndices` not nil, the index in `points` of the input point nearest to each output
    /// point (along the stroke) is appended to it.
    static func resample(_ points: [StrokePoint], spacing: Double, into out: inout [(Double, Double)],
                         pointIndices: inout [Int]?) {
        var pts: [(Double, Double)] = []
        var source: [Int] = []  // index in `points` of each point of `pts`
        pts.reserveCapacity(points.count)
        let tracks = pointIndices != nil
        for (i, p) in points.enumerated() {
            let q = (Double(p.x), Double(p.y))
            if let last = pts.last, last == q { continue }
            pts.append(q)
            if tracks { source.append(i) }
        }
        if pts.count == 1 {
            out.append(pts[0])
            pointIndices?.append(source[0])
            return
        }
        var cum = [Double](repeating: 0, count: pts.count)
        for j in 1..<pts.count {
            let dx = pts[j].0 - pts[j - 1].0, dy = pts[j].1 - pts[j - 1].1
            cum[j] = cum[j - 1] + (dx * dx + dy * dy).squareRoot()
        }
        let total = cum[pts.count - 1]
        let n = max(1, Int((total / spacing).rounded(.toNearestOrEven)))
        out.append(pts[0])
        pointIndices?.append(source[0])
        var j = 0
        for k in 1..<n {
            let target = total * Double(k) / Double(n)
            while j < pts.count - 2 && cum[j + 1] < target { j += 1 }
            let f = (target - cum[j]) / (cum[j + 1] - cum[j])
            out.append((pts[j].0 + (pts[j + 1].0 - pts[j].0) * f, pts[j].1 + (pts[j + 1].1 - pts[j].1) * f))
            if tracks { pointIndices!.append(source[f < 0.5 ? j : j + 1]) }
        }
        out.append(pts[pts.count - 1])
        pointIndices?.append(source[pts.count - 1])
    }
}
