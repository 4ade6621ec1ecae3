import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// Cancelling a recognition stops its work; the streaming page API yields lines as they are read.
/// Each test runs its recognizer on a pool of its own, so the pool's counters see only its work.
@Suite("Cancellation and streaming pages")
struct PageCancellationTests {
    /// A page of `copies` copies of fixture page p0004 (5 lines) stacked top to bottom.
    static func tallPage(copies: Int) -> Ink {
        let page = FixturePage.all.first { $0.id == "p0004-plain" }!.ink
        let ys = page.strokes.flatMap(\.points).map(\.y)
        let step = (ys.max()! - ys.min()!) * 1.3
        var strokes: [Stroke] = []
        for c in 0..<copies {
            let dy = Float(c) * step
            strokes += page.strokes.map { Stroke(points: $0.points.map { StrokePoint(x: $0.x, y: $0.y + dy, t: $0.t) }) }
        }
        return Ink(strokes: strokes)
    }

    static func recognizer(pool: _ComputePool) -> DigitalInkRecognizer {
        DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory), pool: pool)
    }

    /// Waits (up to 10 s) until `pool` runs nothing, and returns how many items it has started.
    static func settled(_ pool: _ComputePool) async throws -> Int {
        for _ in 0..<1000 where pool.activity.running > 0 { try await Task.sleep(for: .milliseconds(10)) }
        return pool.activity.started
    }

    @Test("cancelling recognizePage on a 200-line page after its first line throws CancellationError within two lines' time, and the work stops")
    func cancelPage() async throws {
        let ink = Self.tallPage(copies: 40)
        #expect(try InkLayout.lines(of: ink).count == 200)
        let pool = _ComputePool(threadCount: 2)
        let recognizer = Self.recognizer(pool: pool)
        try await recognizer.load()
        // A line's time: the mean over one copy of the page (5 lines), read as the tall page reads them.
        let one = ContinuousClock.now
        _ = try await recognizer.recognizePage(Self.tallPage(copies: 1))
        let lineTime = (ContinuousClock.now - one) / 5

        let base = pool.activity.started
        let (firstLine, signal) = AsyncStream<Void>.makeStream()
        // recognizePage is readPage with no use for the lines as they come; here the first one is signalled.
        let task = Task {
            defer { signal.finish() }  // (a page that fails before its first line ends the wait below)
            return try await recognizer.readPage(ink, context: RecognitionContext()) { _ in signal.yield() }
        }
        for await _ in firstLine { break }
        let cancelled = ContinuousClock.now
        let startedBefore = pool.activity.started
        task.cancel()
        let outcome = await task.result
        let latency = ContinuousClock.now - cancelled

        #expect(throws: CancellationError.self) { try outcome.get() }
        // When it throws, nothing of the page is running; at most one item per thread had started as
        // the cancellation came (a thread takes an item while the task is being cancelled).
        #expect(pool.activity.running == 0)
        let startedAfter = pool.activity.started
        #expect(startedAfter - startedBefore <= pool.threadCount, "\(startedAfter - startedBefore) items started after the cancellation")
        #expect(latency < lineTime * 2, "cancelled in \(latency); a line takes \(lineTime)")
        // ... and nothing starts later (the 400 queued and unqueued items of the other lines never run).
        try await Task.sleep(for: .milliseconds(300))
        #expect(pool.activity.started == startedAfter)
        #expect(startedAfter - base < 20, "\(startedAfter - base) items of 401 ran")
    }

    @Test("recognizePageLines yields the first line before the last line is read, and stops when the loop does")
    func streamFirstLineEarly() async throws {
        let ink = Self.tallPage(copies: 40)
        let pool = _ComputePool(threadCount: 2)
        let recognizer = Self.recognizer(pool: pool)
        try await recognizer.load()
        var first: PageRecognitionResult.Line?
        var startedAtFirst = 0
        for try await line in recognizer.recognizePageLines(ink) {
            first = line
            startedAtFirst = pool.activity.started
            break
        }
        // The page needs 401 items (segmentation, then each line's network and its decoding); when the
        // first line came, only the first few lines' networks had run.
        #expect(first?.text.isEmpty == false)
        #expect(startedAtFirst < 20, "\(startedAtFirst) items had started")
        let started = try await Self.settled(pool)
        try await Task.sleep(for: .milliseconds(300))
        #expect(pool.activity.started == started)
        #expect(started < 40, "\(started) items ran after the loop ended")
    }

    @Test("recognizePageLines gives the lines of recognizePage, in order, and its errors")
    func streamEqualsPage() async throws {
        let recognizer = Self.recognizer(pool: _ComputePool(threadCount: 2))
        for page in FixturePage.all.prefix(4) {
            let whole = try await recognizer.recognizePage(page.ink)
            var streamed: [PageRecognitionResult.Line] = []
            for try await line in recognizer.recognizePageLines(page.ink) { streamed.append(line) }
            #expect(streamed == whole.lines, "\(page.id)")
        }
        let bad = Ink(strokes: [Stroke(points: [StrokePoint(x: .nan, y: 0)])])
        await #expect(throws: DigitalInkError.invalidInk(.nonFiniteCoordinate(stroke: 0, point: 0))) {
            for try await _ in recognizer.recognizePageLines(bad) {}
        }
    }

    @Test("recognize in a cancelled task throws CancellationError and runs nothing")
    func cancelledRecognize() async throws {
        let pool = _ComputePool(threadCount: 1)
        let recognizer = Self.recognizer(pool: pool)
        try await recognizer.load()
        let ink = FixturePage.all[0].ink
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await recognizer.recognize(ink)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(pool.activity.started == 0)
        // The same call, not cancelled, recognizes.
        #expect(try await recognizer.recognize(ink).candidates.isEmpty == false)
        #expect(pool.activity.started == 1)
    }

    @Test("a queued item cancelled before a thread reaches it never runs; its caller is answered at once")
    func queuedItemSkipped() async throws {
        let pool = _ComputePool(threadCount: 1)
        let gate = DispatchSemaphore(value: 0)
        // Occupy the only thread until the gate opens (at the latest 10 s after it started, should
        // cancelling fail).
        let blocker = Task { try await pool.runCancellable { gate.wait(); return 1 } }
        while pool.activity.started == 0 { try await Task.sleep(for: .milliseconds(5)) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { gate.signal() }
        let queued = Task { try await pool.runCancellable { 2 } }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = ContinuousClock.now
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        let answeredIn = ContinuousClock.now - cancelled
        // Answered while the thread was still busy, not when it came free: the blocker is still
        // inside the gate (a state, not a time, so that a loaded machine cannot fail it), and that
        // before the fail-safe would have opened the gate.
        let whenAnswered = pool.activity
        gate.signal()
        #expect(whenAnswered.running == 1 && whenAnswered.started == 1)
        #expect(answeredIn < .seconds(9))
        #expect(try await blocker.value == 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(pool.activity.started == 1)
    }
}
