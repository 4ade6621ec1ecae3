// The DigitalInk benchmark suite (package-benchmark). Run from Benchmarks/:
//
//     OPENBLAS_NUM_THREADS=1 swift package benchmark                 # all
//     swift package benchmark --filter 'word8-unipen.*'              # one set
//
// Inks: see BenchmarkSupport (Samples/ plus the UNIPEN sets of prepare_inks.py). A benchmark over a
// set takes the set's inks in turn, one per iteration, so p50/p90 are over inks and repetitions.
// Stages are those of DigitalInkRecognizer.recognize: 1 preprocessing (features), 2 network forward,
// 3 decoding without / 4 with the language model, 5 end to end (validation + 1 + 2 + 4).
import Benchmark
@_spi(Engine) import BenchmarkSupport
@_spi(Engine) import DigitalInk
import Foundation

/// Loaded once per benchmark process, on first use (each benchmark runs in a process of its own).
enum Shared {
    static let pipeline: Pipeline = {
        do { return try Pipeline() } catch { fatalError("cannot load the model in \(BenchPaths.modelDirectory.path): \(error)") }
    }()

    static let recognizer: DigitalInkRecognizer = DigitalInkRecognizer(
        options: DigitalInkRecognizerOptions(modelDirectory: BenchPaths.modelDirectory))

    /// Features and log-probabilities of every ink of every set, for the stage benchmarks.
    static let prepared: [String: [(features: FeatureMatrix, logProbs: FeatureMatrix)]] = {
        var out: [String: [(FeatureMatrix, FeatureMatrix)]] = [:]
        for set in InkSets.available {
            out[set.name] = set.inks.map { ink in
                let f = pipeline.features(ink)
                return (f, pipeline.network.logProbabilities(f))
            }
        }
        return out
    }()
}

/// Round-robin position over a set's inks (a benchmark's iterations run one after another).
final class Cursor: @unchecked Sendable {
    private var i = 0
    func next(_ count: Int) -> Int {
        defer { i += 1 }
        return i % count
    }
}

enum Metrics {
    static let inksPerSecond = BenchmarkMetric.custom("inks/s", polarity: .prefersLarger, useScalingFactor: false)
    static let frames = BenchmarkMetric.custom("input frames", polarity: .prefersSmaller, useScalingFactor: false)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(2),
        maxIterations: 400
    )
    let dir = BenchPaths.modelDirectory

    // MARK: Model load (files are in the page cache after the first iteration: warm loads).

    Benchmark("model load: recognizer.load()",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident, .mallocBytesCount], maxIterations: 60)) { _ in
        let r = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
        try await r.load()
        blackHole(r)
    }
    Benchmark("model load: network weights only",
              configuration: .init(metrics: [.wallClock, .mallocBytesCount], maxIterations: 60)) { _ in
        let c = try ModelConfiguration.load(from: dir.appendingPathComponent("config.json"))
        blackHole(try RecognitionNetwork(configuration: c.network, weightsURL: dir.appendingPathComponent(c.network.weights)))
    }
    Benchmark("model load: language model only",
              configuration: .init(metrics: [.wallClock, .mallocBytesCount], maxIterations: 60)) { _ in
        blackHole(try CharacterNgramModel(contentsOf: dir.appendingPathComponent("lm.bin")))
    }

    // MARK: Stages and end to end, per ink set.

    for set in InkSets.available {
        let n = set.inks.count
        let tag = "\(set.name) (\(n) ink\(n == 1 ? "" : "s"); \(String(format: "%.1f", set.meanLabelLength)) chars)"

        let c1 = Cursor()
        Benchmark("\(tag): 1 preprocessing",
                  configuration: .init(setup: { _ = Shared.pipeline })) { benchmark in
            let f = Shared.pipeline.features(set.inks[c1.next(n)])
            blackHole(f)
        }
        let c2 = Cursor()
        Benchmark("\(tag): 2 network forward",
                  configuration: .init(metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal, Metrics.frames],
                                       setup: { _ = Shared.prepared })) { benchmark in
            let f = Shared.prepared[set.name]![c2.next(n)].features
            benchmark.startMeasurement()
            blackHole(Shared.pipeline.network.logProbabilities(f))
            benchmark.stopMeasurement()
            benchmark.measurement(Metrics.frames, f.rows)
        }
        let c3 = Cursor()
        Benchmark("\(tag): 3 decode without LM",
                  configuration: .init(setup: { _ = Shared.prepared })) { benchmark in
            blackHole(Shared.pipeline.decode(Shared.prepared[set.name]![c3.next(n)].logProbs, languageModel: false))
        }
        let c4 = Cursor()
        Benchmark("\(tag): 4 decode with LM",
                  configuration: .init(setup: { _ = Shared.prepared })) { benchmark in
            blackHole(Shared.pipeline.decode(Shared.prepared[set.name]![c4.next(n)].logProbs, languageModel: true))
        }
        let c5 = Cursor()
        Benchmark("\(tag): 5 end-to-end",
                  configuration: .init(setup: { try await Shared.recognizer.load() })) { benchmark in
            let item = set.inks[c5.next(n)]
            blackHole(try await Shared.recognizer.recognize(item.ink, context: item.context))
        }
    }

    // MARK: Batch throughput: recognize a whole set, on all cores and on one.

    if let batch = InkSets.named(InkSets.unipenWords) ?? InkSets.named(InkSets.sampleWord) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let batchConfig = Benchmark.Configuration(metrics: [.wallClock, .peakMemoryResident, Metrics.inksPerSecond],
                                                  timeUnits: .milliseconds, warmupIterations: 1, maxIterations: 20,
                                                  setup: { try await Shared.recognizer.load() })
        Benchmark("batch: \(batch.name) x\(batch.inks.count) on all \(cores) cores", configuration: batchConfig) { benchmark in
            let clock = ContinuousClock(), start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for item in batch.inks {
                    group.addTask { blackHole(try await Shared.recognizer.recognize(item.ink, context: item.context)) }
                }
                try await group.waitForAll()
            }
            let d = clock.now - start
            let s = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
            benchmark.measurement(Metrics.inksPerSecond, Int((Double(batch.inks.count) / s).rounded()))
        }
        Benchmark("batch: \(batch.name) x\(batch.inks.count) on 1 core", configuration: batchConfig) { benchmark in
            let clock = ContinuousClock(), start = clock.now
            for item in batch.inks { blackHole(try await Shared.recognizer.recognize(item.ink, context: item.context)) }
            let d = clock.now - start
            let s = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
            benchmark.measurement(Metrics.inksPerSecond, Int((Double(batch.inks.count) / s).rounded()))
        }
    }

    // MARK: Memory of one recognizer: load it and recognize the longest set, in a fresh process.

    if let longest = InkSets.named(InkSets.unipenLines) ?? InkSets.named(InkSets.sampleLine) {
        Benchmark("memory: one recognizer: load + \(longest.name)",
                  configuration: .init(metrics: [.peakMemoryResident, .peakMemoryResidentDelta, .mallocBytesCount, .wallClock],
                                       timeUnits: .milliseconds, warmupIterations: 0, maxIterations: 3)) { _ in
            let r = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: dir))
            for item in longest.inks { blackHole(try await r.recognize(item.ink, context: item.context)) }
        }
    }
}
