import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Pages built from the samples (one writer's words, placed as a layout says), one per hazard of
/// line segmentation: each expects the exact lines.
@Suite("Pages: segmentation hazards, one small page each")
struct PageHazardTests {
    /// A word of the samples, scaled to a common body height `h` and placed with its box's left edge
    /// at `x` and its box's vertical centre at `y`.
    struct Word {
        var name: String
        var x: Float
        var y: Float
        var scale: Float = 1
    }

    static let h: Float = 100

    static func ink(of name: String) throws -> (Ink, BoundingBox) {
        let ink = try sample("\(name).json").ink
        return (ink, BoundingBox(strokes: Array(ink.strokes.indices), of: ink))
    }

    /// The strokes of each line (words in writing order, lines top to bottom), then rotated by
    /// `degrees` about the origin; returns the ink and each line's stroke indices.
    static func page(_ lines: [[Word]], degrees: Float = 0, extra: [Stroke] = [], extraLine: [Int] = []) throws -> (Ink, [Set<Int>]) {
        var strokes: [Stroke] = []
        var members: [Set<Int>] = []
        for words in lines {
            var set = Set<Int>()
            for w in words {
                let (ink, box) = try ink(of: w.name)
                let k = h / box.height * w.scale
                for s in ink.strokes {
                    set.insert(strokes.count)
                    strokes.append(Stroke(points: s.points.map {
                        StrokePoint(x: ($0.x - box.x) * k + w.x, y: ($0.y - box.y - box.height / 2) * k + w.y) }))
                }
            }
            members.append(set)
        }
        for (s, line) in zip(extra, extraLine) {
            members[line].insert(strokes.count)
            strokes.append(s)
        }
        let a = degrees * .pi / 180, (c, sn) = (cos(a), sin(a))
        let rotated = strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x * c - $0.y * sn, y: $0.x * sn + $0.y * c) }) }
        return (Ink(strokes: rotated), members)
    }

    /// Words of one line from left to right, `gap` body heights apart, on a baseline that moves by
    /// `rise` body heights per word.
    static func line(_ names: [String], y: Float, x: Float = 0, gap: Float = 0.5, rise: Float = 0, scale: Float = 1) throws -> [Word] {
        var out: [Word] = []
        var at = x
        for (i, n) in names.enumerated() {
            let (_, box) = try ink(of: n)
            out.append(Word(name: n, x: at, y: y + rise * h * Float(i), scale: scale))
            at += box.width * (h / box.height) * scale + gap * h * scale
        }
        return out
    }

    static func expectLines(_ ink: Ink, _ expected: [Set<Int>], _ comment: Comment) throws {
        let lines = try InkLayout.lines(of: ink)
        #expect(lines.map { Set($0.strokeIndices) } == expected, comment)
    }

    @Test("a page turned by 7 degrees: three lines")
    func slanted() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["hello", "there", "argument"], y: 0),
            try Self.line(["argument", "hello"], y: 1.5 * Self.h),
            try Self.line(["there", "hello", "there"], y: 3 * Self.h),
        ], degrees: 7)
        try Self.expectLines(ink, lines, "slanted page")
    }

    @Test("baselines that drift down along the line (a curved or stepped baseline), lines 1.5 heights apart")
    func driftingBaselines() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["hello", "there", "argument", "hello"], y: 0, rise: 0.15),
            try Self.line(["there", "hello", "there", "argument"], y: 1.5 * Self.h, rise: 0.15),
            try Self.line(["argument", "there"], y: 3 * Self.h, rise: -0.1),
        ])
        try Self.expectLines(ink, lines, "drifting baselines")
    }

    @Test("lines of different heights: large, small, medium (twice as high as the small one)")
    func differentHeights() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["hello", "there"], y: 0, scale: 1.4),
            try Self.line(["there", "argument", "hello"], y: 1.5 * Self.h, scale: 0.7),
            try Self.line(["argument", "hello"], y: 2.7 * Self.h, scale: 1.0),
        ])
        try Self.expectLines(ink, lines, "different heights")
    }

    @Test("descenders of one line reach below the tops of the next (lines one word height apart)")
    func descendersIntoNextLine() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["argument", "argument", "argument"], y: 0),
            try Self.line(["hello", "there", "hello"], y: 1.0 * Self.h),
            try Self.line(["argument", "there"], y: 2.0 * Self.h),
        ])
        try Self.expectLines(ink, lines, "descenders")
    }

    @Test("a line whose words are written with generous gaps (four body heights) stays one line")
    func generousGaps() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["hello", "there", "argument", "hello"], y: 0, gap: 4),
            try Self.line(["there", "hello"], y: 1.6 * Self.h, gap: 4),
        ])
        try Self.expectLines(ink, lines, "generous gaps")
    }

    @Test("dots, a dash and a comma written after the whole page go back to their lines")
    func lateMarksAndPunctuation() throws {
        let first = try Self.line(["hello", "there", "argument"], y: 0)
        let second = try Self.line(["there", "hello"], y: 1.6 * Self.h)
        let h = Self.h
        func dot(_ x: Float, _ y: Float) -> Stroke { Stroke(points: [StrokePoint(x: x, y: y), StrokePoint(x: x + 4, y: y + 3)]) }
        let marks = [
            dot(first[2].x + 0.4 * h, -0.75 * h),                                           // an i-dot over line 1
            Stroke(points: [StrokePoint(x: second[0].x + 0.1 * h, y: 1.6 * h - 0.55 * h),      // a t-cross on line 2
                            StrokePoint(x: second[0].x + 0.5 * h, y: 1.6 * h - 0.57 * h)]),
            Stroke(points: [StrokePoint(x: second[1].x + 2.4 * h, y: 1.6 * h + 0.45 * h),      // a comma after line 2
                            StrokePoint(x: second[1].x + 2.35 * h, y: 1.6 * h + 0.65 * h)]),
            dot(first[1].x + 2.2 * h, 0.45 * h),                                            // a period after a word of line 1
        ]
        let (ink, lines) = try Self.page([first, second], extra: marks, extraLine: [0, 1, 1, 0])
        try Self.expectLines(ink, lines, "late marks")
    }

    @Test("a short last line of one digit-sized stroke under a long line")
    func singleCharacterLine() throws {
        let (ink, lines) = try Self.page([
            try Self.line(["hello", "there", "argument"], y: 0),
            try Self.line(["there"], y: 1.6 * Self.h, scale: 0.8),
        ])
        // The digit "1" as the third line.
        let one = Stroke(points: (0...10).map { StrokePoint(x: 0.3 * Self.h, y: 3.2 * Self.h - 0.45 * Self.h + Float($0) * 0.09 * Self.h) })
        let full = Ink(strokes: ink.strokes + [one])
        try Self.expectLines(full, lines + [[ink.strokes.count]], "a one-stroke line")
    }
}

/// Pages of training writers (make_pages.py `--writers training`) that an earlier segmentation got
/// wrong, one per case, each expected split exactly into its true lines: Docs/pages.md, "Three later
/// changes to the line count" and the marks' writing order after them.
@Suite("Pages: segmentation cases from training writers' pages")
struct PageSegmentationCaseTests {
    static let pages = FixturePage.load("pages/segmentation-cases.jsonl")

    @Test("the fixture has its six cases")
    func fixture() {
        #expect(Self.pages.count == 6)
        #expect(Self.pages.allSatisfy { !$0.note.isEmpty })
    }

    @Test("each case is split into exactly its true lines, top to bottom", arguments: pages.map(\.id))
    func exactLines(id: String) throws {
        let page = try #require(Self.pages.first { $0.id == id })
        let lines = try InkLayout.lines(of: page.ink)
        #expect(lines.map { Set($0.strokeIndices) } == page.lines.map { Set($0.strokes) }, "\(page.id): \(page.note)")
    }
}
