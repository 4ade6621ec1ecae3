import Foundation
import Synchronization
import Testing
@_spi(Engine) @testable import DigitalInk

/// Hostile and unlucky inputs to the recognizer: each is answered with a typed error or a result,
/// in bounded time and memory, never a crash.
@Suite("Reliability: hostile inks and options")
struct ReliabilityTests {
    let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))

    static func ink(_ strokes: [[(Float, Float)]]) -> Ink {
        Ink(strokes: strokes.map { Stroke(points: $0.map { StrokePoint(x: $0.0, y: $0.1) }) })
    }

    static func isTooLong(_ error: any Error) -> Bool {
        if case DigitalInkError.invalidInk(.tooLong) = error { return true }
        return false
    }

    @Test("inks that once trapped in resampling (Double to Int) are refused as too long")
    func resamplingTraps() async throws {
        let short = Self.ink([[(0, 0), (100, 0)]])
        await #expect(performing: {
            try await recognizer.recognize(short, context: RecognitionContext(writingArea: WritingArea(width: 1, height: 1e-30)))
        }, throws: Self.isTooLong)
        let far = Self.ink([[(0, 0)], [(1, 0)], [(0, 0), (3e38, 0)]])
        await #expect(performing: { try await recognizer.recognize(far) }, throws: Self.isTooLong)
    }

    @Test("work is bounded by the frame limit, not by the pen's path over the line height")
    func unboundedWork() async throws {
        // 70 bytes of JSON with a tiny writing area: was 11.5 s and 2.5 GB.
        let tiny = Self.ink([[(0, 0), (10, 10), (20, 0)]])
        await #expect(performing: {
            try await recognizer.recognize(tiny, context: RecognitionContext(writingArea: WritingArea(width: 1e-3, height: 1e-3)))
        }, throws: Self.isTooLong)
        // A two-point stroke to x = 1e7 beside small strokes: was 30 GB.
        let long = Self.ink([[(0, 0), (1, 1)], [(2, 0), (3, 1)], [(0, 0), (1e7, 0)]])
        await #expect(performing: { try await recognizer.recognize(long) }, throws: Self.isTooLong)
        // A 10,000-point zigzag: was 2 GB.
        let zigzag = Self.ink([(0..<10_000).map { (Float($0), $0 % 2 == 0 ? 0 : 1000) }])
        await #expect(performing: { try await recognizer.recognize(zigzag) }, throws: Self.isTooLong)
    }

    @Test("the frame count checked before resampling is exactly the number of frames made")
    func frameLimitIsExact() throws {
        let doc = try sample("line.json")
        var extractor = FeatureExtractor()
        let rows = try extractor.features(for: doc.ink).rows
        extractor.maxFrames = rows
        #expect(try extractor.features(for: doc.ink).rows == rows)
        extractor.maxFrames = rows - 1
        #expect(throws: DigitalInkError.invalidInk(.tooLong(frames: Double(rows), limit: rows - 1))) {
            try extractor.features(for: doc.ink)
        }
        // The limit relative to the points: a two-point stroke of 40 frames passes at 64 per point,
        // fails at 16 per point (limit 32).
        let stroke = Self.ink([[(0, 0), (100, 0)]])
        #expect(try FeatureExtractor().features(for: stroke).rows == 41)
        extractor = FeatureExtractor()
        extractor.maxFramesPerPoint = 16
        #expect(throws: DigitalInkError.invalidInk(.tooLong(frames: 41, limit: 32))) { try extractor.features(for: stroke) }
    }

    @Test("options out of range are typed errors, before any work")
    func optionRanges() async throws {
        let ink = try sample("hello.json").ink
        func options(_ change: (inout DigitalInkRecognizerOptions) -> Void) -> DigitalInkRecognizer {
            var o = DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)
            change(&o)
            return DigitalInkRecognizer(options: o)
        }
        func isInvalid(_ name: String) -> (any Error) -> Bool {
            { if case DigitalInkError.invalidOption(name, _) = $0 { return true } else { return false } }
        }
        for count in [0, -1, Int.max, 100_000_000_000] {
            await #expect(performing: { try await options { $0.maxResultCount = count }.recognize(ink) }, throws: isInvalid("maxResultCount"))
        }
        for width in [0, Int.max] {
            await #expect(performing: { try await options { $0.decoder.beamWidth = width }.recognize(ink) }, throws: isInvalid("beamWidth"))
        }
        await #expect(performing: { try await options { $0.decoder.lmWeight = .nan }.recognize(ink) }, throws: isInvalid("lmWeight"))
        await #expect(performing: { try await options { $0.decoder.insertionBonus = .infinity }.recognize(ink) }, throws: isInvalid("insertionBonus"))
        await #expect(performing: { try await options { $0.decoder.endWeight = -.infinity }.recognize(ink) }, throws: isInvalid("endWeight"))
        #expect(try await options { $0.maxResultCount = DigitalInkRecognizerOptions.maxResultLimit }.recognize(ink).candidates.count > 10)
    }

    @Test("a network whose output is not finite is a model error, not NaN scores")
    func nonFiniteNetwork() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Fixtures.modelsDirectory.appendingPathComponent("zxx-Zsym-x-shapes")
        for name in ["config.json", "weights.safetensors"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        // Every weight byte 0x7F: float32 3.4e38 (and half-precision NaN), so activations overflow.
        let url = dir.appendingPathComponent("weights.safetensors")
        var data = try Data(contentsOf: url)
        let headerLength = Int(data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        data.replaceSubrange((8 + headerLength)..., with: Data(repeating: 0x7F, count: data.count - 8 - headerLength))
        try data.write(to: url)
        let broken = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
        await #expect(performing: { try await broken.recognize(try sample("shape-arrow.json").ink) }, throws: { error in
            if case DigitalInkError.modelCorrupt = error { return true } else { return false }
        })
    }

    @Test("timestamps going backwards are accepted by default and rejected on request")
    func timestamps() throws {
        let ink = Ink(strokes: [
            Stroke(points: [StrokePoint(x: 0, y: 0, t: 0), StrokePoint(x: 1, y: 1, t: 8)]),
            Stroke(points: [StrokePoint(x: 2, y: 0, t: 20), StrokePoint(x: 3, y: 1), StrokePoint(x: 4, y: 0, t: 19)]),
        ])
        try ink.validate()
        #expect(ink.firstDecreasingTimestamp! == (1, 2))
        #expect(throws: DigitalInkError.invalidInk(.decreasingTimestamp(stroke: 1, point: 2))) { try ink.validate(timestamps: .strict) }
        #expect(ink.repairingTimestamps().firstDecreasingTimestamp == nil)
        let doc = try InkDocument(jsonData: Data(#"{"strokes":[{"points":[{"x":0,"y":0,"t":5},{"x":1,"y":1,"t":4}]}]}"#.utf8))
        #expect(doc.ink.firstDecreasingTimestamp! == (0, 1))
    }
}

/// Recognition runs on the library's compute threads: concurrent use gives serial results, and
/// other async work is not starved meanwhile.
@Suite("Reliability: concurrency")
struct ConcurrencyStressTests {
    static let names = ["hello.json", "there.json", "line.json", "digits.json", "argument.json"]

    @Test("64 concurrent recognitions on one recognizer and on several equal the serial results")
    func stress() async throws {
        let inks = try Self.names.map { try sample($0).ink }
        let shared = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        var serial: [DigitalInkRecognitionResult] = []
        for ink in inks { serial.append(try await shared.recognize(ink)) }
        let several = (0..<4).map { _ in DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory)) }
        let results = try await withThrowingTaskGroup(of: (Int, DigitalInkRecognitionResult).self) { group in
            for i in 0..<64 {
                let recognizer = i % 2 == 0 ? shared : several[i % several.count]
                let ink = inks[i % inks.count]
                group.addTask { (i, try await recognizer.recognize(ink)) }
            }
            var out: [(Int, DigitalInkRecognitionResult)] = []
            for try await r in group { out.append(r) }
            return out
        }
        #expect(results.count == 64)
        for (i, r) in results { #expect(r == serial[i % inks.count]) }
    }

    @Test("a task started after many recognitions runs before they have all finished")
    func cooperativePoolIsFree() async throws {
        let ink = try sample("line.json").ink
        let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: shippedModelDirectory))
        try await recognizer.load()
        final class Counter: Sendable { let value = Atomic<Int>(0) }
        let counter = Counter()
        let total = 32 * max(2, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<total {
                group.addTask {
                    _ = try await recognizer.recognize(ink)
                    counter.value.add(1, ordering: .relaxed)
                }
            }
            // Queued behind every recognition on the cooperative pool, this probe would see them
            // (nearly) all done; with recognitions on the compute threads it runs at once, or, while
            // other tests keep the cooperative threads busy, soon.
            let seen = await Task { () -> Int in
                for _ in 0..<10 { await Task.yield() }
                return counter.value.load(ordering: .relaxed)
            }.value
            #expect(seen < total * 3 / 4, "the probe saw \(seen) of \(total) recognitions finished")
            try await group.waitForAll()
        }
        #expect(counter.value.load(ordering: .relaxed) == total)
    }
}
