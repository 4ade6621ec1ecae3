import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

@Suite("Format: JSON Lines batches")
struct FormatBatchTests {
    /// One compact JSON line for ink number `i`.
    static func line(_ i: Int) -> String {
        #"{"id":"ink-\#(i)","strokes":[{"points":[{"x":\#(i),"y":\#(i % 7).5,"t":\#(i * 10)},{"x":\#(i + 1),"y":2,"t":\#(i * 10 + 5)}]}]}"#
    }

    @Test func readsLinesWithTheirNumbersAndSkipsBlankOnesWhenAsked() throws {
        let text = "\(Self.line(0))\n\n   \n\(Self.line(1))\r\n\t\r\n\(Self.line(2))"
        var reader = InkBatchReader(data: Data(text.utf8))
        reader.skipsBlankLines = true
        let entries = Array(reader)
        #expect(entries.map(\.line) == [1, 4, 6])
        #expect(entries.map { $0.document?.id } == ["ink-0", "ink-1", "ink-2"])
        #expect(entries[1].document?.ink.strokes[0].points[0] == StrokePoint(x: 1, y: 1.5, t: 10))
    }

    @Test func everyLineBlankOrNotGivesOneEntry() throws {
        let text = "\(Self.line(0))\n\n   \n\(Self.line(1))\r\n\t\r\n\(Self.line(2))\n"
        let entries = Array(InkBatchReader(data: Data(text.utf8), source: "b.jsonl"))
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5, 6])
        #expect(entries.map { $0.document?.id } == ["ink-0", nil, nil, "ink-1", nil, "ink-2"])
        for line in [2, 3, 5] {
            #expect(entries[line - 1].error == .malformedInput(source: "b.jsonl", line: line, field: nil, reason: "blank line"))
        }
        // A last line without its line break is a line; the final line break starts none.
        #expect(Array(InkBatchReader(data: Data("\n  ".utf8))).map(\.line) == [1, 2])
        #expect(Array(InkBatchReader(data: Data("\n\n  \n".utf8))).count == 3)
    }

    @Test func theIdOfACutOrDeeplyNestedLineIsSalvaged() throws {
        let lines = [
            #"{"id":"a7","strokes":[[[1,2"#,  // cut off
            #"{"id":"d1","strokes":"# + String(repeating: "[", count: 100_000),  // nested too deeply
            #"{"strokes":[{"points":[]}, {"x":"}"}], "label":"a,b}", "id":"late-\"q\"", "x":"#,  // id after other members
            #"{"id":"first","id":7,"strokes":[}"#,  // the last id is not a string
            #"{"strokes":[[[1,2]]],"meta":{"id":"nested"},"bad":}"#,  // only a nested id
            #"["id","x"]"#,
            #"{"id":"cut-in-the-id"#,
        ]
        let entries = Array(InkBatchReader(data: Data(lines.joined(separator: "\n").utf8)))
        #expect(entries.allSatisfy { $0.error != nil })
        #expect(entries.map(\.id) == ["a7", "d1", "late-\"q\"", nil, nil, nil, nil])
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test func anOverlongLineKeepsItsLineNumberAndId() throws {
        let long = #"{"id":"big-one","strokes":[],"pad":""# + String(repeating: "x", count: 5000) + #""}"#
        let text = [Self.line(0), long, Self.line(2), long].joined(separator: "\n")
        for chunkSize in [256, 1 << 20] {  // cut while reading, or found whole
            var reader = InkBatchReader(data: Data(text.utf8))
            reader.chunkSize = chunkSize
            reader.maxLineLength = 1000
            let entries = Array(reader)
            #expect(entries.map(\.line) == [1, 2, 3, 4])
            #expect(entries.map(\.id) == ["ink-0", "big-one", "ink-2", "big-one"])
            #expect(entries[1].error == .malformedInput(source: "<input>", line: 2, field: nil, reason: "line is longer than 1000 bytes; skipped"))
        }
    }

    @Test func aMalformedLineNamesItsLineAndFieldAndLaterLinesGoOn() throws {
        let lines = [
            Self.line(0),
            Self.line(1),
            #"{"strokes":[{"points":[{"x":1,"y":2}]},{"points":[{"x":1,"y":2},{"x":"oops","y":3}]}]}"#,
            "",
            #"{"strokes": [}"#,
            #"{"strokes":[{"points":[{"x":1,"y":2}]}],"writingArea":{"width":0,"height":120}}"#,
            Self.line(6),
        ]
        var entries = Array(InkBatchReader(data: Data(lines.joined(separator: "\n").utf8), source: "batch.jsonl"))
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
        #expect(entries[3].error == .malformedInput(source: "batch.jsonl", line: 4, field: nil, reason: "blank line"))
        entries.remove(at: 3)
        #expect(entries[2].error == .malformedInput(
            source: "batch.jsonl", line: 3, field: "strokes[1].points[1].x", reason: "expected a number, found a string"))
        #expect(entries[3].error == .malformedInput(
            source: "batch.jsonl", line: 5, field: "strokes[0]", reason: "unexpected character '}' where a stroke object was expected at column 14"))
        #expect(entries[4].error == .invalidInk(.invalidWritingArea(width: 0, height: 120)))
        #expect(entries[5].document?.id == "ink-6")
        #expect(entries.filter { $0.document != nil }.count == 3)
        #expect(entries.map(\.id) == ["ink-0", "ink-1", nil, nil, nil, "ink-6"])
    }

    @Test func timestampsGoingBackwardsAreReadAsTheyAre() throws {
        let line = #"{"strokes":[{"points":[{"x":1,"y":2,"t":5},{"x":1,"y":2,"t":4}]}]}"#
        let entry = try #require(Array(InkBatchReader(data: Data(line.utf8))).first)
        let ink = try #require(entry.document?.ink)
        #expect(ink.firstDecreasingTimestamp! == (0, 1))
        #expect(ink.strokes[0].points.map(\.t) == [5, 4])
    }

    @Test func aRejectedInkKeepsItsLinesId() throws {
        let lines = [
            #"{"id":"late","strokes":[{"points":[{"x":1,"y":2}]}],"writingArea":{"width":0,"height":1}}"#,  // valid JSON, invalid ink
            #"{"id":"bad-x","strokes":[{"points":[{"x":"NaN","y":2}]}]}"#,
            #"{"id":7,"strokes":[{"points":[{"x":"NaN","y":2}]}]}"#,  // a number, not a string id
            #"{"id":"cut","strokes":["#,  // not JSON at all, but the id is complete
        ]
        let entries = Array(InkBatchReader(data: Data(lines.joined(separator: "\n").utf8)))
        #expect(entries.allSatisfy { $0.error != nil })
        #expect(entries.map(\.id) == ["late", "bad-x", nil, "cut"])
    }

    @Test func readsAThousandLinesFromAFile() throws {
        var text = ""
        for i in 0..<1500 { text += Self.line(i) + "\n" }
        let url = try temporaryFile(Data(text.utf8), suffix: ".jsonl")
        defer { try? FileManager.default.removeItem(at: url) }

        var reader = try InkBatchReader(contentsOf: url)
        reader.chunkSize = 4096  // many chunk boundaries fall inside lines
        var count = 0
        for (i, entry) in reader.enumerated() {
            let doc = try entry.result.get()
            #expect(entry.line == i + 1)
            if doc.id != "ink-\(i)" || doc.ink.strokes[0].points[1].t != Int64(i * 10 + 5) {
                Issue.record("line \(entry.line) read wrongly: \(doc)")
            }
            count += 1
        }
        #expect(count == 1500)
        // A reader made from a URL can be iterated again.
        #expect(reader.reduce(0) { n, _ in n + 1 } == 1500)
    }

    @Test func readsFromAFileHandle() throws {
        let url = try temporaryFile(Data("\(Self.line(0))\n\(Self.line(1))\n".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let ids = InkBatchReader(fileHandle: handle, source: url.path).map { $0.document?.id }
        #expect(ids == ["ink-0", "ink-1"])
    }

    @Test func handlesMultiMegabyteLines() throws {
        // About 3 MB on one line: 60,000 points.
        var points: [StrokePoint] = []
        for i in 0..<60_000 { points.append(StrokePoint(x: Float(i) * 0.25, y: Float(i % 97) + 0.125, t: Int64(i))) }
        let big = InkDocument(id: "big", ink: Ink(strokes: [Stroke(points: points)]))
        var data = try big.jsonData()
        #expect(data.count > 2_000_000)
        data.append(contentsOf: "\n".utf8)
        data.append(contentsOf: Self.line(1).utf8)
        var reader = InkBatchReader(data: data)
        reader.chunkSize = 64 * 1024
        let entries = Array(reader)
        #expect(entries.count == 2)
        #expect(try entries[0].result.get() == big)
        #expect(entries[1].document?.id == "ink-1")
        #expect(entries[1].line == 2)
    }

    @Test func overlongLinesAreReportedAndSkipped() throws {
        let long = #"{"strokes":[],"pad":""# + String(repeating: "x", count: 5000) + #""}"#
        let text = [Self.line(0), long, Self.line(2), long].joined(separator: "\n")
        var reader = InkBatchReader(data: Data(text.utf8))
        reader.chunkSize = 256
        reader.maxLineLength = 1000
        let entries = Array(reader)
        #expect(entries.map(\.line) == [1, 2, 3, 4])
        #expect(entries[1].error == .malformedInput(source: "<input>", line: 2, field: nil, reason: "line is longer than 1000 bytes; skipped"))
        #expect(entries[2].document?.id == "ink-2")
        #expect(entries[3].error != nil)
    }

    @Test func emptyInputGivesNoEntries() {
        #expect(Array(InkBatchReader(data: Data())).isEmpty)
        var blank = InkBatchReader(data: Data("\n\n  \n".utf8))
        blank.skipsBlankLines = true
        #expect(Array(blank).isEmpty)
    }

    @Test func missingFileIsATypedError() {
        let path = "/nonexistent/dir/inks.jsonl"
        let e = malformedInput { try InkBatchReader(contentsOf: URL(fileURLWithPath: path)) }
        #expect(e == MalformedInput(source: path, line: nil, field: nil, reason: "file not found"))
    }
}

@Suite("InkBatchReader: lines read now, parsed later")
struct PendingLineTests {
    @Test("nextPending then entry() gives what next() gives, line for line: inks, a bad line, a blank line, an over-long line, CRLF")
    func sameEntries() throws {
        let ink = #"{"id": "a", "strokes": [[[0, 0], [10, 5], [20, 0]]]}"#
        let text = [ink, "{not json", "", #"{"id": "b", "strokes": [[[1, 1], [2, 2]]]}"# + "\r", String(repeating: "x", count: 300), ink].joined(separator: "\n")
        for skips in [false, true] {
            var reader = InkBatchReader(data: Data(text.utf8), source: "t")
            reader.maxLineLength = 200
            reader.skipsBlankLines = skips
            let direct = Array(reader)
            var it = reader.makeIterator()
            var later: [InkBatchReader.Entry] = []
            while let line = it.nextPending() { if let e = line.entry() { later.append(e) } }
            #expect(later == direct)
            #expect(direct.count == (skips ? 5 : 6))
            #expect(direct.compactMap(\.document).count == 3)
        }
    }
}
