import Foundation

/// Splits a page of ink into text lines and puts each line's strokes in reading order.
///
/// Everything is measured in the ink's own scale; no sizes are fixed in units:
///
/// 1. **Scale.** `h`, the typical height of a writing stroke: the median height of the strokes that
///    are not tiny, floored by a small fraction of the page's extent (so that a page of dots still
///    has a scale).
/// 2. **Skew.** The page's writing direction: the angle in −10°…10° whose rotation makes the
///    vertical profile of stroke centres sharpest (coarse, then fine). Everything below happens in
///    that rotated frame; the caller's coordinates are never changed.
/// 3. **Lines.** The core strokes (letters' bodies) are cut into runs of the writing order
///    (``writingRuns(_:frame:scale:)``); the peaks of the profile of their centres start the lines,
///    each run goes whole to the nearest line, the lines' centre lines are fitted again a few times,
///    and a line whose strokes or runs lie in two bands over each other is split. Lines started twice,
///    or that the writing order shows to be one, are merged; fragments (a lone descender) join their
///    neighbour. The rule in full, with figures: `Docs/pages.md`.
/// 4. **Marks.** Small strokes (i-dots, t-crosses, accents, commas, periods) join the line of the
///    nearest body stroke, where a body stroke *below* the mark counts as nearer than one above it
///    (dots and accents sit above their letter); between lines nearly as near, the line of the
///    stroke written just before the mark wins (the writing order).
/// 5. **Order.** Lines top to bottom (by their centre at the page's middle). Inside a line, strokes
///    are grouped into clusters (body strokes whose x-ranges overlap or nearly touch, with their
///    marks): clusters go left to right, and strokes inside a cluster keep their writing order. So a
///    word written later to the left of others moves to its place, and a dot written at the end of a
///    line goes back to its word.
///
/// **Direction.** All of the above is written for left-to-right writing (``direction``). A page
/// written right to left is read as the same rule reads the page mirrored in x (x → −x): lines stay
/// top to bottom, clusters go right to left, strokes inside a cluster keep their writing order, and a
/// right-to-left writer's writing runs look like a left-to-right writer's in the mirror. Only the
/// strokes' geometry is mirrored (``StrokeGeometry/init(_:mirrored:)``); the lines' boxes are
/// measured on the ink itself, in its own coordinates. Inside a right-to-left line, a run of clusters
/// written left to right (the digits of a number, a Latin phrase: ``leftToRightRuns``) keeps its
/// writing order, which is its logical order.
///
/// Where it fails: heavily overlapping lines (one written over another), lines closer than about
/// half a stroke height, and text whose lines differ in skew by more than about 15° from each other.
///
/// Complexity: O(n log n + n · L) for n strokes and L lines (at most ``maxLines``).
struct LineSegmenter: Sendable {
    /// The most lines a page may have: 200. More is refused as `invalidInk(.tooManyLines)`.
    var maxLines = 200
    /// The writing direction, which decides the reading order inside a line: clusters left to right,
    /// or right to left (the page read mirrored in x).
    var direction: WritingDirection = .leftToRight
    /// Whether neighbouring clusters written one after another in reading order, at most `0.4 scale`
    /// apart (less than a word gap), are read in their writing order (``writtenInOrder(_:within:)``: the pieces of an Arabic
    /// word, with the dots written after it). `nil`: for right-to-left lines only, where it was
    /// measured (`Docs/pages.md`, "Right-to-left pages"); the tests set it to compare the directions.
    var keepingWrittenRuns: Bool? = nil

    /// The lines of `ink`, top to bottom, each with its strokes in reading order
    /// (``InkLayout/Line``), its box in the ink's coordinates. Empty strokes belong to no line; an ink
    /// without points has no lines.
    func lines(of ink: Ink) throws(DigitalInkError) -> [InkLayout.Line] {
        try strokeGroups(of: ink).map { InkLayout.Line(strokeIndices: $0, boundingBox: BoundingBox(strokes: $0, of: ink)) }
    }

    /// The stroke indices of each line of `ink`, top to bottom, in reading order inside each. Every
    /// step below sees the strokes through ``StrokeGeometry``, mirrored in x for right-to-left
    /// writing, so that "left", "right", `minX` and `maxX` mean "before" and "after" in the reading
    /// order throughout.
    private func strokeGroups(of ink: Ink) throws(DigitalInkError) -> [[Int]] {
        let mirrored = direction == .rightToLeft
        let boxes = ink.strokes.map { StrokeGeometry($0, mirrored: mirrored) }
        let present = boxes.indices.filter { !boxes[$0].isEmpty }
        guard !present.isEmpty else { return [] }
        if present.count == 1 { return [present] }

        let angle = Self.skew(boxes, present)
        let (c, s) = (cos(angle), sin(angle))
        // Each stroke in the deskewed frame: x along the writing direction, y across it.
        var frame: [Int: StrokeGeometry.Frame] = [:]
        for i in present { frame[i] = boxes[i].frame(cos: c, sin: s) }
        let h = Self.strokeScale(present.map { frame[$0]! })

        let isBody = { (i: Int) -> Bool in frame[i]!.height >= 0.35 * h || frame[i]!.width >= 0.35 * h }
        var body = present.filter(isBody)
        var marks = present.filter { !isBody($0) }
        if body.isEmpty { (body, marks) = (present, []) }

        // 3. Lines from the core strokes (neither tall nor flat: letters' bodies), left to right;
        //    then the other body strokes (ascenders and descenders of their own, dashes, tall
        //    symbols) join the line that reaches them.
        body.sort { (frame[$0]!.minX, $0) < (frame[$1]!.minX, $1) }
        let isCore = { (i: Int) -> Bool in frame[i]!.coreHeight >= 0.3 * h && frame[i]!.coreHeight <= 2.2 * h }
        var core = body.filter(isCore)
        var others = body.filter { !isCore($0) }
        if core.isEmpty { (core, others) = (body, []) }
        let runs = Self.writingRuns(core, frame: frame, scale: h)
        var lines = try Self.fitLines(core, runs: runs, frame: frame, scale: h, maxLines: maxLines)
        lines = Self.mergeDuplicates(lines, frame: frame, scale: h)
        lines = Self.mergeContinued(lines, core: core, frame: frame, scale: h)
        lines = Self.dissolveFragments(lines, runs: runs, frame: frame, scale: h)
        marks += others

        // 4. Marks and the other small or flat strokes join the line whose centre line is nearest,
        //    where being above it counts 0.6 (dots, accents and crosses sit above a line's centre;
        //    commas and periods just below it), among the lines that reach them in x. Inside the
        //    line, the nearest body stroke in x is its host, for the reading order. The writing
        //    order decides between lines that are nearly as near: a mark joins the line of the
        //    stroke written just before it (a dot after its letter, the marks of a line written at
        //    its end, before the next line) when that line reaches it and its cost is within `h` of
        //    the nearest line's. Not for marks written after the last body stroke: those may go
        //    back over the whole page (all the i-dots at the end), and the geometry decides.
        var lineOf: [Int: Int] = [:]
        for (k, line) in lines.enumerated() { for i in line.strokes { lineOf[i] = k } }
        let isMark = Set(marks)
        let lastBody = present.last { !isMark.contains($0) } ?? -1
        var previous: Int? = nil  // the line of the latest stroke, in the ink's order, that has one
        var costs = [Double](repeating: .infinity, count: lines.count)
        for m in present {
            guard isMark.contains(m) else { previous = lineOf[m] ?? previous; continue }
            let f = frame[m]!
            var best: (line: Int, cost: Double)? = nil
            for k in costs.indices { costs[k] = .infinity }
            for pass in 0..<2 where best == nil {
                for (k, line) in lines.enumerated() {
                    if pass == 0, f.maxX < line.minX - 2 * h || f.minX > line.maxX + 2 * h { continue }
                    let d = f.centerY - line.predictedCenter(at: f.centerX)
                    let cost = d >= 0 ? d : -0.6 * d
                    costs[k] = cost
                    if best == nil || cost < best!.cost { best = (k, cost) }
                }
            }
            guard var k = best?.line else { continue }
            if m < lastBody, let p = previous, p != k, costs[p] <= best!.cost + h { k = p }
            previous = k
            let host = lines[k].strokes.min { abs(frame[$0]!.centerX - f.centerX) < abs(frame[$1]!.centerX - f.centerX) }!
            lines[k].marks.append((m, host))
        }

        // 5. Order: lines top to bottom, clusters left to right inside each (right to left in the
        //    ink for right-to-left writing: the frame is mirrored).
        let middle = present.reduce(0.0) { $0 + frame[$1]!.centerX } / Double(present.count)
        let keyed = lines.map { (center: $0.predictedCenter(at: middle), first: $0.strokes.min()!, line: $0) }
            .sorted { ($0.center, $0.first) < ($1.center, $1.first) }
        return keyed.map { Self.readingOrder($0.line, frame: frame, scale: h, keepingLeftToRightRuns: mirrored,
                                             keepingWrittenRuns: keepingWrittenRuns ?? mirrored) }
    }

    // MARK: - Steps

    /// The first index of sorted `values` whose value is at least `bound`. O(log n).
    static func firstIndex(in values: [Double], notBelow bound: Double) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < bound { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The typical body height of a writing stroke: the median of the strokes' core heights (10th to
    /// 90th percentile of their points' y, so that a loop or a tail does not count) over the upper
    /// half of them (letters rather than dots and dashes), floored by 1/1000 of the page's extent.
    static func strokeScale(_ frames: [StrokeGeometry.Frame]) -> Double {
        let minY = frames.map(\.minY).min()!, maxY = frames.map(\.maxY).max()!
        let minX = frames.map(\.minX).min()!, maxX = frames.map(\.maxX).max()!
        let extent = max(maxX - minX, maxY - minY)
        let floor = max(extent * 1e-3, Double(Float.leastNormalMagnitude))
        let sizes = frames.map(\.coreHeight).filter { $0 > floor }.sorted()
        guard !sizes.isEmpty else { return max(floor, extent > 0 ? extent / 10 : 1) }
        let upper = sizes[(sizes.count / 2)...]
        return max(upper[upper.startIndex + upper.count / 2], floor)
    }

    /// The page's skew in radians: the rotation that makes the histogram of the points' positions
    /// across the writing direction sharpest (the sum of squared bin counts; bins of 1/200 of the
    /// page's height; at most about 20,000 points, evenly taken).
    static func skew(_ boxes: [StrokeGeometry], _ present: [Int]) -> Double {
        let total = present.reduce(0) { $0 + boxes[$1].points.count }
        let step = max(1, total / 20_000)
        var points: [(Double, Double)] = []
        var k = 0
        for i in present { for p in boxes[i].points { if k % step == 0 { points.append(p) }; k += 1 } }
        guard points.count >= 3 else { return 0 }
        let ys = points.map(\.1), xs = points.map(\.0)
        let span = max(ys.max()! - ys.min()!, 1e-3 * (xs.max()! - xs.min()!), Double(Float.leastNormalMagnitude))
        let bin = span / 200
        let (mx, my) = (xs.reduce(0, +) / Double(xs.count), ys.reduce(0, +) / Double(ys.count))
        // The bins' index range over every angle tried: |v| is at most the largest distance from the
        // mean point, in bins (at most about 400,000 bins: the span is at least 1/1000 of the width).
        let reach = points.reduce(0.0) { max($0, abs($1.0 - mx) + abs($1.1 - my)) } / bin
        let half = reach.isFinite ? min(Int(reach.rounded(.up)) + 1, 1 << 22) : 1 << 22
        var counts = [Int32](repeating: 0, count: 2 * half + 1)
        var used: [Int] = []
        used.reserveCapacity(points.count)
        func sharpness(_ a: Double) -> Double {
            let (c, s) = (cos(a), sin(a))
            for (x, y) in points {
                let v = (-(x - mx) * s + (y - my) * c) / bin
                guard v.isFinite, abs(v) < 1e12 else { continue }
                let k = min(max(Int(v.rounded(.down)), -half), half) + half
                if counts[k] == 0 { used.append(k) }
                counts[k] += 1
            }
            var total = 0.0
            for k in used { total += Double(counts[k]) * Double(counts[k]); counts[k] = 0 }
            used.removeAll(keepingCapacity: true)
            return total
        }
        func best(in angles: [Double]) -> Double {
            var top = (angle: 0.0, score: -1.0)
            for a in angles {
                let v = sharpness(a)
                if v > top.score * (1 + 1e-9) || (abs(v - top.score) <= 1e-9 * top.score && abs(a) < abs(top.angle)) { top = (a, v) }
            }
            return top.angle
        }
        let degree = Double.pi / 180
        let coarse = best(in: stride(from: -10.0, through: 10.0, by: 1.0).map { $0 * degree })
        return best(in: stride(from: -1.0, through: 1.0, by: 0.25).map { coarse + $0 * degree })
    }

    /// Lines from the core strokes: the peaks of the smoothed profile of their centres across the
    /// writing direction start one line each (peaks without a valley between them are one); then, a few
    /// times, every stroke joins the line whose centre line is nearest, and each line's centre line
    /// is fitted again (weighted least squares of the strokes' centres, its slope bounded by ±0.035:
    /// a line may drift two degrees from the page's skew).
    static func fitLines(_ strokes: [Int], runs runOf: [Int: Int] = [:], frame: [Int: StrokeGeometry.Frame], scale h: Double, maxLines: Int) throws(DigitalInkError) -> [LineBuilder] {
        // Each run of the writing order (see ``writingRuns``) as positions in `strokes`.
        var runMembers: [Int: [Int]] = [:]
        for (k, i) in strokes.enumerated() { runMembers[runOf[i] ?? -1 - k, default: []].append(k) }
        let runs = runMembers.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        let runAt = strokes.enumerated().map { runOf[$0.element] ?? -1 - $0.offset }
        let ys = strokes.map { frame[$0]!.centerY }, xs = strokes.map { frame[$0]!.centerX }
        let weights = strokes.map { max(1, frame[$0]!.width / h).squareRoot() }
        let lo = ys.min()! - 2 * h, hi = ys.max()! + 2 * h
        let bin = h / 8
        let bins = min(Int(((hi - lo) / bin).rounded(.up)) + 1, 200_000)
        var profile = [Double](repeating: 0, count: bins)
        let sigma = 0.3 * h, reach = Int((3 * sigma / bin).rounded(.up))
        for (y, w) in zip(ys, weights) {
            let c = Int(((y - lo) / bin).rounded())
            for b in max(0, c - reach)...min(bins - 1, c + reach) {
                let d = (lo + Double(b) * bin - y) / sigma
                profile[b] += w * exp(-0.5 * d * d)
            }
        }
        // Peaks, top to bottom; neighbours not separated by a valley (the profile between them
        // stays above 60% of the lower one) or closer than h/2 are one line, at the higher peak.
        let top = profile.max() ?? 0
        var peaks: [Int] = []
        for b in profile.indices where profile[b] >= 0.08 * top && profile[b] > 0
            && (b == 0 || profile[b] >= profile[b - 1]) && (b == bins - 1 || profile[b] > profile[b + 1]) {
            if let last = peaks.last {
                let valley = profile[last...b].min()!
                if valley > 0.85 * min(profile[last], profile[b]) || Double(b - last) * bin < 0.5 * h {
                    if profile[b] > profile[last] { peaks[peaks.count - 1] = b }
                    continue
                }
            }
            peaks.append(b)
        }
        let centers = peaks.map { lo + Double($0) * bin }
        guard centers.count <= maxLines else { throw .invalidInk(.tooManyLines(limit: maxLines)) }
        // Centre lines y = a + slope * (x - x0), fitted a few times.
        let x0 = (xs.min()! + xs.max()!) / 2
        var fits = centers.map { (a: $0, slope: 0.0) }
        var member = [Int](repeating: 0, count: strokes.count)
        var rounds = 0
        repeat {
        for _ in 0..<6 {
            for k in strokes.indices {
                var best = 0, bestD = Double.infinity
                for (l, f) in fits.enumerated() {
                    let d = abs(ys[k] - (f.a + f.slope * (xs[k] - x0)))
                    if d < bestD { (best, bestD) = (l, d) }
                }
                member[k] = best
            }
            // A run of the writing order goes to one line: the one nearest to its strokes together.
            for run in runs {
                var best = member[run[0]], bestCost = Double.infinity
                for (l, f) in fits.enumerated() {
                    var cost = 0.0
                    for k in run { cost += weights[k] * abs(ys[k] - (f.a + f.slope * (xs[k] - x0))) }
                    if cost < bestCost { (best, bestCost) = (l, cost) }
                }
                for k in run { member[k] = best }
            }
            var next: [(a: Double, slope: Double)] = []
            var remap = [Int](repeating: -1, count: fits.count)
            for l in fits.indices {
                let ks = strokes.indices.filter { member[$0] == l }
                guard !ks.isEmpty else { continue }
                let sw = ks.reduce(0) { $0 + weights[$1] }
                let mx = ks.reduce(0) { $0 + weights[$1] * xs[$1] } / sw
                let my = ks.reduce(0) { $0 + weights[$1] * ys[$1] } / sw
                var sxx = 0.0, sxy = 0.0
                for k in ks { sxx += weights[k] * (xs[k] - mx) * (xs[k] - mx); sxy += weights[k] * (xs[k] - mx) * (ys[k] - my) }
                let span = ks.map { xs[$0] }.max()! - ks.map { xs[$0] }.min()!
                let slope = span < 3 * h || sxx <= 0 ? 0 : min(max(sxy / sxx, -0.035), 0.035)
                remap[l] = next.count
                next.append((my - slope * (mx - x0), slope))
            }
            for k in member.indices { member[k] = remap[member[k]] }
            fits = next
        }
        // A line whose strokes lie in two bands with nothing between them (a short line right under
        // a long one, whose profile peak the long one hid) is two lines: split it and fit again.
        var split = false
        for l in fits.indices {
            let ks = strokes.indices.filter { member[$0] == l }
            let residuals = ks.map { (k: $0, r: ys[$0] - (fits[l].a + fits[l].slope * (xs[$0] - x0))) }.sorted { $0.r < $1.r }
            guard residuals.count >= 6 else { continue }
            var cut: (index: Int, gap: Double)? = nil
            for j in 3..<(residuals.count - 2) {  // at least 3 strokes on either side
                let gap = residuals[j].r - residuals[j - 1].r
                if gap >= 0.8 * h, cut == nil || gap > cut!.gap { cut = (j, gap) }
            }
            var lower = cut.map { residuals[$0.index...].map(\.k) } ?? []
            if cut == nil, let band = Self.stackedRuns(ks, runOf: runAt, residual: { ys[$0] - (fits[l].a + fits[l].slope * (xs[$0] - x0)) },
                                                       span: { (frame[strokes[$0]]!.minX, frame[strokes[$0]]!.maxX) }, scale: h) {
                lower = band
            }
            guard !lower.isEmpty else { continue }
            let meanY = lower.reduce(0) { $0 + ys[$1] } / Double(lower.count)
            let meanX = lower.reduce(0) { $0 + xs[$1] } / Double(lower.count)
            fits.append((meanY - fits[l].slope * (meanX - x0), fits[l].slope))
            for k in lower { member[k] = fits.count - 1 }
            split = true
        }
        rounds += 1
        guard fits.count <= maxLines else { throw .invalidInk(.tooManyLines(limit: maxLines)) }
        if !split { break }
        } while rounds < 8
        var lines: [LineBuilder] = []
        for (k, i) in strokes.enumerated() {
            let l = member[k]
            while lines.count <= l { lines.append(LineBuilder()) }
            lines[l].add(i, frame[i]!)
        }
        return lines.filter { !$0.strokes.isEmpty }
    }

    /// Runs of the writing order: consecutive core strokes (in the ink's order) that go on along one
    /// line, i.e. whose centre stays within `1.3 scale` of the median centre of the run's last five
    /// strokes and whose right end does not go back left of the last one's by more than `1.5 scale`
    /// (the return to a line's start, or to a word inserted before others), nor both drops (or
    /// rises) more than `0.8 scale` and goes back more than `0.5 scale` (the return to the next of
    /// short lines written close together). A page written line by line
    /// is a few long runs, one or more a line; a stroke written later elsewhere (a word inserted, a
    /// line added between two others) starts a run of its own. ``fitLines(_:runs:frame:scale:maxLines:)``
    /// keeps a run in one line, and splits a line whose runs lie in two bands over each other.
    /// Strokes in no useful order make runs of one stroke: the geometry alone decides then.
    static func writingRuns(_ strokes: [Int], frame: [Int: StrokeGeometry.Frame], scale h: Double) -> [Int: Int] {
        var runOf: [Int: Int] = [:]
        var run = -1
        var recent: [Double] = []
        var lastMaxX = 0.0
        for i in strokes.sorted() {
            let f = frame[i]!
            if run >= 0 {
                let centre = recent.sorted()[recent.count / 2]
                let (drop, back) = (abs(f.centerY - centre), lastMaxX - f.maxX)
                // Far off the line, far back to the left, or both a little (the return to the next
                // line of a writer whose lines are close and short).
                if drop > 1.3 * h || back > 1.5 * h || (drop > 0.8 * h && back > 0.5 * h) { recent = [] }
            }
            if recent.isEmpty { run += 1 }
            runOf[i] = run
            recent.append(f.centerY)
            if recent.count > 5 { recent.removeFirst() }
            lastMaxX = f.maxX
        }
        return runOf
    }

    /// The strokes of a line's lower band when its writing runs lie in two bands over each other: the
    /// runs (by the median residual of their strokes from the line's centre line) have a gap of at
    /// least `0.6 scale` between two of them, with at least two strokes (or one as wide as `2 scale`) on
    /// either side, and the two
    /// sides' extents overlap in x by at least `scale` and by half the shorter one (one is written
    /// above the other, not beside it), and the strokes of each side cover at least `scale` in x
    /// (writing, not a few quotes or accents written late over the line). Nil
    /// when there is no such gap. `members` are positions; `runOf` gives each position's run.
    static func stackedRuns(_ members: [Int], runOf: [Int], residual: (Int) -> Double, span: (Int) -> (Double, Double), scale h: Double) -> [Int]? {
        var groups: [Int: [Int]] = [:]
        for k in members { groups[runOf[k], default: []].append(k) }
        guard groups.count >= 2 else { return nil }
        let ranked = groups.values.map { ks -> (r: Double, ks: [Int]) in
            let rs = ks.map(residual).sorted()
            return (rs[rs.count / 2], ks)
        }.sorted { ($0.r, $0.ks[0]) < ($1.r, $1.ks[0]) }
        var best: (index: Int, gap: Double)? = nil
        var above = 0
        let total = members.count
        for j in 1..<ranked.count {
            above += ranked[j - 1].ks.count
            let gap = ranked[j].r - ranked[j - 1].r
            // Each side: at least two strokes, or one as wide as a word.
            func wide(_ rs: ArraySlice<(r: Double, ks: [Int])>) -> Bool {
                guard rs.count == 1, rs.first!.ks.count == 1 else { return false }
                let (lo, hi) = span(rs.first!.ks[0])
                return hi - lo >= 2 * h
            }
            guard gap >= 0.6 * h, above >= 2 || wide(ranked[..<j]), total - above >= 2 || wide(ranked[j...]), best == nil || gap > best!.gap else { continue }
            let (upper, lower) = (union(ranked[..<j].flatMap { $0.ks.map(span) }), union(ranked[j...].flatMap { $0.ks.map(span) }))
            // One side above the other: their extents overlap by h and by half the shorter one. Each
            // side is writing, not a few marks (quotes written late over a line): its strokes cover
            // at least h in x.
            let (upperLo, upperHi) = (upper.first!.0, upper.last!.1), (lowerLo, lowerHi) = (lower.first!.0, lower.last!.1)
            let overlap = min(upperHi, lowerHi) - max(upperLo, lowerLo)
            guard overlap >= h, overlap >= 0.5 * min(upperHi - upperLo, lowerHi - lowerLo) else { continue }
            guard length(upper) >= h, length(lower) >= h else { continue }
            best = (j, gap)
        }
        guard let best else { return nil }
        return ranked[best.index...].flatMap(\.ks)
    }

    /// The line that `f` belongs to: the one whose predicted centre is inside the stroke's vertical
    /// extent or nearest to it (within `tolerance`); ties (a long stroke reaching into two lines) go to
    /// the line whose centre is nearest the stroke's centre.
    static func nearestLine(_ lines: [LineBuilder], to f: StrokeGeometry.Frame, tolerance: Double, excluding: Int? = nil) -> Int? {
        var best: (index: Int, gap: Double, distance: Double)? = nil
        for (k, line) in lines.enumerated() where k != excluding {
            let c = line.predictedCenter(at: f.minX)
            let gap = max(0, c - f.coreMaxY, f.coreMinY - c)
            guard gap <= tolerance else { continue }
            let distance = abs(c - f.centerY)
            if best == nil || (gap, distance) < (best!.gap, best!.distance) { best = (k, gap, distance) }
        }
        return best?.index
    }

    /// Lines of at most three strokes narrower than `4 scale` (a descender or an ascender that started
    /// a line of its own) give their strokes to a neighbouring line that reaches them: within
    /// `scale` of its centre line, `0.7 scale` for a line of one stroke.
    static func dissolveFragments(_ lines: [LineBuilder], runs runOf: [Int: Int] = [:], frame: [Int: StrokeGeometry.Frame], scale h: Double) -> [LineBuilder] {
        var lines = lines
        var k = 0
        while k < lines.count {
            let line = lines[k]
            guard line.strokes.count <= 3, line.maxX - line.minX < 4 * h, lines.count > 1 else { k += 1; continue }
            // Strokes written together, apart from the rest (one run of the writing order), are a
            // short line of their own unless their centres lie on the other line's centre line.
            // (So is one stroke as wide as a word: a descender or an ascender is narrower.)
            let oneRun = line.strokes.count >= 2 ? Set(line.strokes.map { runOf[$0] ?? -1 - $0 }).count == 1
                                                 : line.maxX - line.minX >= 2 * h
            // A lone stroke joins a line that reaches within 0.7 scale of it (a lone character, a
            // dash or a slash, written as a line of its own, stays one); more strokes within scale.
            let tolerance = (line.strokes.count == 1 ? 0.7 : 1.0) * h
            var targets: [(stroke: Int, line: Int)] = []
            for i in line.strokes {
                guard let t = nearestLine(lines, to: frame[i]!, tolerance: tolerance, excluding: k) else { break }
                if oneRun, abs(lines[t].predictedCenter(at: frame[i]!.centerX) - frame[i]!.centerY) > 0.6 * h { break }
                targets.append((i, t))
            }
            guard targets.count == line.strokes.count else { k += 1; continue }
            for (i, t) in targets { lines[t].add(i, frame[i]!) }
            lines.remove(at: k)
            k = 0  // indices moved: look again from the start
        }
        return lines
    }

    /// Merges lines that are one line started twice: lines whose strokes overlap in x by less than a
    /// third of the shorter (they sit end to end, or their words alternate along a curved baseline)
    /// and whose centre lines are within `0.6 scale` of each other along the shorter one (within
    /// `0.45 scale` where an end-to-end pair meets).
    static func mergeDuplicates(_ lines: [LineBuilder], frame: [Int: StrokeGeometry.Frame], scale h: Double) -> [LineBuilder] {
        var lines = lines.sorted { $0.minX < $1.minX }
        var merged = true
        while merged {
            merged = false
            outer: for a in lines.indices {
                for b in lines.indices where b > a {
                    let overlap = min(lines[a].maxX, lines[b].maxX) - max(lines[a].minX, lines[b].minX)
                    let shorter = min(lines[a].maxX - lines[a].minX, lines[b].maxX - lines[b].minX)
                    let (left, right) = lines[a].minX <= lines[b].minX ? (a, b) : (b, a)
                    if overlap < max(shorter, h) / 3 {
                        let at = lines[right].minX
                        let gap = abs(lines[left].predictedCenter(at: at) - lines[right].predictedCenter(at: at))
                        guard gap <= 0.45 * h, at - lines[left].maxX < 6 * h else { continue }
                    } else {
                        // Extents overlap: one line only if the strokes themselves hardly do.
                        let (small, large) = lines[a].strokes.count <= lines[b].strokes.count ? (a, b) : (b, a)
                        let at = (max(lines[a].minX, lines[b].minX) + min(lines[a].maxX, lines[b].maxX)) / 2
                        guard abs(lines[a].predictedCenter(at: at) - lines[b].predictedCenter(at: at)) <= 1.0 * h else { continue }
                        let covered = [lines[a], lines[b]].map { Self.coverage($0.strokes, frame: frame) }
                        let lengths = covered.map(Self.length)
                        guard Self.overlapLength(covered[0], covered[1]) < min(lengths[0], lengths[1]) / 3 else { continue }
                        var gaps = lines[small].strokes.map { i -> Double in
                            let x = frame[i]!.centerX
                            return abs(lines[small].predictedCenter(at: x) - lines[large].predictedCenter(at: x))
                        }
                        gaps.sort()
                        guard gaps[gaps.count / 2] <= 0.6 * h else { continue }
                    }
                    lines[left].absorb(lines[right])
                    lines.remove(at: right)
                    merged = true
                    break outer
                }
            }
        }
        return lines
    }

    /// Merges lines that the writing order shows to be one: the writer went on from the end of one
    /// to the start of the other (consecutive core strokes, moving right by at most `3 scale`), the
    /// two sit end to end (overlapping in x by less than a third of the shorter), and their centre
    /// lines are within `0.9 scale` of each other there: a baseline that steps or curves more than a
    /// straight centre line follows.
    static func mergeContinued(_ lines: [LineBuilder], core: [Int], frame: [Int: StrokeGeometry.Frame], scale h: Double) -> [LineBuilder] {
        var lines = lines
        var lineOf: [Int: Int] = [:]
        for (l, line) in lines.enumerated() { for i in line.strokes { lineOf[i] = l } }
        var pairs: [(Int, Int, Double)] = []
        let ordered = core.sorted()
        for (i, j) in zip(ordered, ordered.dropFirst()) {
            guard let a = lineOf[i], let b = lineOf[j], a != b else { continue }
            let (fi, fj) = (frame[i]!, frame[j]!)
            guard fj.minX > fi.maxX - 0.5 * h, fj.minX - fi.maxX < 3 * h else { continue }
            pairs.append((a, b, fj.minX))
        }
        guard !pairs.isEmpty else { return lines }
        // Union-find over the lines, then absorb.
        var parent = Array(lines.indices)
        func root(_ x: Int) -> Int { var x = x; while parent[x] != x { x = parent[x] }; return x }
        for (a, b, at) in pairs {
            let (ra, rb) = (root(a), root(b))
            guard ra != rb else { continue }
            let (la, lb) = (lines[a], lines[b])
            let overlap = min(la.maxX, lb.maxX) - max(la.minX, lb.minX)
            let shorter = min(la.maxX - la.minX, lb.maxX - lb.minX)
            guard overlap < max(shorter, h) / 3, abs(la.predictedCenter(at: at) - lb.predictedCenter(at: at)) <= 0.9 * h else { continue }
            parent[rb] = ra
        }
        var kept: [Int: Int] = [:]
        var out: [LineBuilder] = []
        for l in lines.indices {
            let r = root(l)
            if let k = kept[r] { out[k].absorb(lines[l]) } else { kept[r] = out.count; out.append(lines[l]) }
        }
        lines = out
        return lines
    }

    /// The union of the strokes' x ranges, as sorted disjoint intervals.
    static func coverage(_ strokes: [Int], frame: [Int: StrokeGeometry.Frame]) -> [(Double, Double)] {
        union(strokes.map { (frame[$0]!.minX, frame[$0]!.maxX) })
    }

    /// The union of intervals, as sorted disjoint intervals.
    static func union(_ intervals: [(Double, Double)]) -> [(Double, Double)] {
        let spans = intervals.sorted { $0.0 < $1.0 }
        var out: [(Double, Double)] = []
        for (lo, hi) in spans {
            if let last = out.last, lo <= last.1 { out[out.count - 1].1 = max(last.1, hi) } else { out.append((lo, hi)) }
        }
        return out
    }

    /// The total length of disjoint intervals (what ``union(_:)`` returns).
    static func length(_ intervals: [(Double, Double)]) -> Double {
        intervals.reduce(0) { $0 + $1.1 - $1.0 }
    }

    /// The length of the intersection of two sets of sorted disjoint intervals. O(a + b).
    static func overlapLength(_ a: [(Double, Double)], _ b: [(Double, Double)]) -> Double {
        var i = 0, j = 0, total = 0.0
        while i < a.count, j < b.count {
            total += max(0, min(a[i].1, b[j].1) - max(a[i].0, b[j].0))
            if a[i].1 < b[j].1 { i += 1 } else { j += 1 }
        }
        return total
    }

    /// How far a mark is from a body stroke, for attaching it: the gap between their boxes, where a
    /// host below the mark counts half (dots and accents sit above their letter) and a horizontal
    /// gap counts 1.5 times.
    static func attachmentCost(mark m: StrokeGeometry.Frame, host b: StrokeGeometry.Frame, scale h: Double) -> Double {
        let dx = max(0, max(b.minX - m.maxX, m.minX - b.maxX))
        var dy = 0.0
        if m.maxY < b.minY { dy = 0.5 * (b.minY - m.maxY) }        // mark above the host
        else if m.minY > b.maxY { dy = m.minY - b.maxY }           // mark below the host
        else { dy = 0.1 * abs(m.centerY - b.centerY) }              // beside it
        return 1.5 * dx + dy
    }

    /// The strokes of a line in reading order: clusters left to right (body strokes whose x-ranges
    /// overlap or lie within `0.15 scale`, with the marks attached to them); inside a cluster, writing
    /// order. With `keepingLeftToRightRuns` (a right-to-left line, seen mirrored), runs of clusters
    /// written left to right inside it (``leftToRightRuns``: a number or a Latin word whose letters
    /// stand apart) keep their writing order. With `keepingWrittenRuns`, so do neighbours written one
    /// after another in reading order within `0.4 scale` (``writtenInOrder(_:within:)``: the pieces of
    /// an Arabic word), so that marks written after a word stay after it instead of coming back
    /// between its pieces.
    static func readingOrder(_ line: LineBuilder, frame: [Int: StrokeGeometry.Frame], scale h: Double,
                             keepingLeftToRightRuns: Bool = false, keepingWrittenRuns: Bool = false) -> [Int] {
        let body = line.strokes.sorted { (frame[$0]!.minX, $0) < (frame[$1]!.minX, $1) }
        var clusterOf: [Int: Int] = [:]
        var clusters: [(minX: Double, maxX: Double, strokes: [Int])] = []
        for i in body {
            let f = frame[i]!
            if var last = clusters.last, f.minX <= last.maxX + 0.15 * h {
                last.maxX = max(last.maxX, f.maxX)
                last.strokes.append(i)
                clusters[clusters.count - 1] = last
            } else {
                clusters.append((f.minX, f.maxX, [i]))
            }
            clusterOf[i] = clusters.count - 1
        }
        if keepingLeftToRightRuns {
            for run in leftToRightRuns(clusters.map(\.strokes), frame: frame, scale: h) {
                clusters[run].reverse()
            }
        }
        if keepingWrittenRuns {
            var joined: [(minX: Double, maxX: Double, strokes: [Int])] = []
            for run in writtenInOrder(clusters, within: 0.4 * h) {
                let part = clusters[run]
                joined.append((part.map(\.minX).min()!, part.map(\.maxX).max()!, part.flatMap(\.strokes)))
            }
            clusters = joined
        }
        if keepingLeftToRightRuns || keepingWrittenRuns {
            for (k, c) in clusters.enumerated() { for i in c.strokes { clusterOf[i] = k } }
        }
        for (mark, host) in line.marks { clusters[clusterOf[host]!].strokes.append(mark) }
        return clusters.flatMap { $0.strokes.sorted() }
    }

    /// Maximal runs of neighbouring clusters (x ranges and body strokes, in reading order) that were
    /// written one after another in that order, each at most `gap` from the previous one: the pieces of
    /// a word. Each next cluster's first body stroke is the line's next body stroke after the previous
    /// cluster's last. A word written later elsewhere breaks a run (its strokes are not next in time),
    /// and so does a word gap, so that marks written at the end of a line still go back to their word.
    /// Covers every cluster, in order: a cluster alone is a run of one.
    static func writtenInOrder(_ clusters: [(minX: Double, maxX: Double, strokes: [Int])], within gap: Double) -> [Range<Int>] {
        let rank = Dictionary(uniqueKeysWithValues: clusters.flatMap(\.strokes).sorted().enumerated().map { ($1, $0) })
        var runs: [Range<Int>] = []
        var start = 0
        for k in clusters.indices.dropFirst() {
            let (before, next) = (clusters[k - 1], clusters[k])
            if let last = before.strokes.max(), let first = next.strokes.min(), rank[first]! == rank[last]! + 1,
               next.minX - before.maxX <= gap { continue }
            runs.append(start..<k)
            start = k
        }
        if !clusters.isEmpty { runs.append(start..<clusters.count) }
        return runs
    }

    /// Runs of clusters (given by their body strokes, in reading order of a right-to-left line seen
    /// mirrored in x) that a writer wrote left to right: digits of a number or the words of a Latin
    /// phrase inside a Hebrew or Arabic line, which must be read in their writing order to come out in
    /// logical order. Two neighbours are such a pair when the one on the left (in the ink) was written
    /// just before the one on its right (no other body stroke of the line between them), ended at its
    /// right end and the next one started at its left end (each within `0.5 scale`). A word written
    /// right to left ends at its left end, so a word written later to the right of another is not a
    /// pair and still goes first. Returns maximal chains of pairs as index ranges into `clusters`.
    static func leftToRightRuns(_ clusters: [[Int]], frame: [Int: StrokeGeometry.Frame], scale h: Double) -> [Range<Int>] {
        let order = clusters.flatMap { $0 }.sorted()
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        func isPair(_ right: [Int], _ left: [Int]) -> Bool {
            guard let last = left.max(), let first = right.min(), rank[first]! == rank[last]! + 1 else { return false }
            // Mirrored: the ink's right end of `left` is its smallest x, the ink's left end of `right` its largest.
            let l = left.map { frame[$0]!.minX }.min()!, r = right.map { frame[$0]!.maxX }.max()!
            return frame[last]!.lastX <= l + 0.5 * h && frame[first]!.firstX >= r - 0.5 * h
        }
        var runs: [Range<Int>] = []
        var k = 0
        while k + 1 < clusters.count {
            var end = k
            while end + 1 < clusters.count, isPair(clusters[end], clusters[end + 1]) { end += 1 }
            if end > k { runs.append(k..<(end + 1)) }
            k = end + 1
        }
        return runs
    }
}

/// A line being built: its strokes and the centres of its body strokes, for predicting where it goes.
struct LineBuilder: Sendable {
    var strokes: [Int]
    var marks: [(mark: Int, host: Int)] = []
    /// (x, centre y) of the body strokes, sorted by x.
    private var centers: [(x: Double, y: Double)]
    private(set) var minX: Double
    private(set) var maxX: Double

    init(_ i: Int, _ f: StrokeGeometry.Frame) {
        strokes = [i]
        centers = [(f.centerX, f.centerY)]
        minX = f.minX
        maxX = f.maxX
    }

    /// An empty line (strokes are added with ``add(_:_:)``).
    init() {
        strokes = []
        centers = []
        minX = .infinity
        maxX = -.infinity
    }

    /// Adds a body stroke. Strokes come in nearly increasing x, so keeping `centers` sorted costs
    /// little.
    mutating func add(_ i: Int, _ f: StrokeGeometry.Frame) {
        strokes.append(i)
        centers.append((f.centerX, f.centerY))
        var k = centers.count - 1
        while k > 0, centers[k - 1].x > centers[k].x { centers.swapAt(k - 1, k); k -= 1 }
        minX = min(minX, f.minX)
        maxX = max(maxX, f.maxX)
    }

    mutating func absorb(_ other: LineBuilder) {
        strokes += other.strokes
        marks += other.marks
        centers = (centers + other.centers).sorted { $0.x < $1.x }
        minX = min(minX, other.minX)
        maxX = max(maxX, other.maxX)
    }

    /// The line's centre at `x`: the median centre of the (up to) 6 body strokes nearest to `x` in
    /// x. O(log n).
    func predictedCenter(at x: Double) -> Double {
        var lo = 0, hi = centers.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if centers[mid].x < x { lo = mid + 1 } else { hi = mid }
        }
        var left = lo - 1, right = lo
        var ys: [Double] = []
        while ys.count < 6, left >= 0 || right < centers.count {
            if right >= centers.count || (left >= 0 && x - centers[left].x <= centers[right].x - x) {
                ys.append(centers[left].y); left -= 1
            } else {
                ys.append(centers[right].y); right += 1
            }
        }
        ys.sort()
        return ys.count % 2 == 1 ? ys[ys.count / 2] : (ys[ys.count / 2 - 1] + ys[ys.count / 2]) / 2
    }
}

/// A stroke's extent, in the reading frame (the ink's coordinates, mirrored in x for right-to-left
/// writing) and in a rotated frame.
struct StrokeGeometry: Sendable {
    let points: [(Double, Double)]
    let minX, minY, maxX, maxY: Double
    /// The median of the points' y (robust to a descender or an ascender) and the box's x centre.
    let centerX, centerY: Double
    var isEmpty: Bool { points.isEmpty }

    /// The stroke's geometry; with `mirrored`, of the stroke mirrored in x (x → −x, y unchanged), so
    /// that a right-to-left line reads as a left-to-right one.
    init(_ stroke: Stroke, mirrored: Bool = false) {
        points = stroke.points.map { (mirrored ? -Double($0.x) : Double($0.x), Double($0.y)) }
        (minX, maxX) = points.reduce((Double.infinity, -Double.infinity)) { (min($0.0, $1.0), max($0.1, $1.0)) }
        (minY, maxY) = points.reduce((Double.infinity, -Double.infinity)) { (min($0.0, $1.1), max($0.1, $1.1)) }
        centerX = (minX + maxX) / 2
        let ys = points.map(\.1).sorted()
        centerY = ys.isEmpty ? 0 : ys[ys.count / 2]
    }

    /// The stroke in the frame rotated by the angle whose cosine and sine are given (x along the
    /// writing direction, y across it, still growing downwards).
    struct Frame: Sendable {
        var minX, maxX, minY, maxY, centerX, centerY: Double
        /// x of the stroke's first and last points: where the pen came down and where it lifted.
        var firstX = 0.0, lastX = 0.0
        /// The 10th and 90th percentiles of the points' y: the stroke's body, without the few points
        /// of a loop or a tail.
        var coreMinY = 0.0, coreMaxY = 0.0
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }
        var coreHeight: Double { coreMaxY - coreMinY }
    }

    func frame(cos c: Double, sin s: Double) -> Frame {
        var f = Frame(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity, centerX: 0, centerY: 0)
        var ys: [Double] = []
        ys.reserveCapacity(points.count)
        for (x, y) in points {
            let u = x * c + y * s, v = -x * s + y * c
            f.minX = min(f.minX, u); f.maxX = max(f.maxX, u); f.minY = min(f.minY, v); f.maxY = max(f.maxY, v)
            ys.append(v)
        }
        ys.sort()
        if let a = points.first, let b = points.last { f.firstX = a.0 * c + a.1 * s; f.lastX = b.0 * c + b.1 * s }
        f.centerX = (f.minX + f.maxX) / 2
        f.centerY = ys[ys.count / 2]
        f.coreMinY = ys[ys.count / 10]
        f.coreMaxY = ys[(ys.count * 9) / 10]
        return f
    }
}

