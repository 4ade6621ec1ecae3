// inkrec-bench-forward: times the engine's network forward (RecognitionNetwork.logProbabilities) per
// ink and prints the times as JSON; Benchmarks/side_by_side.py runs it on the very inks it gives to
// ONNX Runtime and PyTorch.
//
//     inkrec-bench-forward [--model DIR] [--repeats N] [--warmup N] [--dump FILE] [--profile FILE] [--check-steps N]
//                          [--steps N]
//                          [--stage forward|features|decode|decode-lm|recognize|layout|page|load|backprop|learn] INK_FILE...
//
// INK_FILE: .json / .inkml (one ink) or .jsonl (one ink a line). Features are computed with the
// model's own settings (config.json); only the forward is timed. --dump writes, per ink in order, the
// features (frames x inputDim) and then the log-probabilities (outFrames x classes) as little-endian
// float32, so that the caller can check that all runtimes compute the same thing. --stage times another stage instead of the forward (for profiling
// with perf: `perf record .build/release/inkrec-bench-forward --stage decode-lm --repeats 50 FILE`).
// --stage load (no ink files) times loading the model instead: a fresh recognizer's `load()` (config,
// network weights, language model), and the network weights and the language model on their own; after
// the warm-up runs the files are in the page cache.
// --stage learn times a writer profile learning from every labelled ink of the files at once (`WriterProfile.learn`,
// a fresh profile each round, the model loaded before): issue 41's "learning from 50 words under 2 s on one core".
// Its check (`WriterProfileCheck`) runs as in an app; --check-steps N sets its steps (0: no check), --steps N the
// profile's own (default: the library's).
@_spi(Engine) import BenchmarkSupport
@_spi(Engine) import DigitalInk
import Foundation

extension Duration {
    /// This duration in microseconds, as the report's times are.
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) * 1e-12 }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("inkrec-bench-forward: \(message)\n".utf8))
    exit(2)
}

var modelDir = BenchPaths.modelDirectory
var repeats = 20
var warmup = 3
var dumpPath: String?
var profilePath: String?
var checkSteps: Int?
var steps: Int?
var stage = "forward"
var files: [URL] = []
var args = CommandLine.arguments.dropFirst()
@MainActor func value(of option: String) -> String {
    guard let v = args.popFirst() else { fail("\(option) needs a value") }
    return v
}
@MainActor func number(of option: String) -> Int {
    guard let n = Int(value(of: option)) else { fail("\(option) needs a number") }
    return n
}
while let a = args.popFirst() {
    switch a {
    case "--model": modelDir = URL(fileURLWithPath: value(of: "--model"), isDirectory: true)
    case "--repeats": repeats = number(of: "--repeats")
    case "--warmup": warmup = number(of: "--warmup")
    case "--dump": dumpPath = value(of: "--dump")
    case "--stage": stage = value(of: "--stage")
    case "--profile": profilePath = value(of: "--profile")
    case "--check-steps": checkSteps = number(of: "--check-steps")
    case "--steps": steps = number(of: "--steps")
    case "-h", "--help":
        print("usage: inkrec-bench-forward [--model DIR] [--repeats N] [--warmup N] [--dump FILE] [--profile FILE] [--check-steps N] [--steps N] [--stage forward|features|decode|decode-lm|recognize|layout|page|load|backprop|learn] INK_FILE...")
        exit(0)
    default: files.append(URL(fileURLWithPath: a))
    }
}
if files.isEmpty && stage != "load" { fail("no ink files given") }
repeats = max(1, repeats)

let config: ModelConfiguration
let network: RecognitionNetwork
do {
    config = try ModelConfiguration.load(from: modelDir.appendingPathComponent("config.json"))
    network = try RecognitionNetwork(configuration: config.network,
                                     weightsURL: modelDir.appendingPathComponent(config.network.weights),
                                     compute: ComputeOptions(environment: ProcessInfo.processInfo.environment))
} catch {
    fail("cannot load the model in \(modelDir.path): \(error)")
}
if !["forward", "features", "decode", "decode-lm", "recognize", "layout", "page", "load", "backprop", "learn"].contains(stage) { fail("unknown stage \(stage)") }
if stage == "load" {
    // Each part `warmup` times untimed, then `repeats` times timed; one record per part.
    let loadClock = ContinuousClock()
    func time(_ body: () async throws -> Void) async -> [Double] {
        var times: [Double] = []
        for round in 0..<(warmup + repeats) {
            let start = loadClock.now
            do { try await body() } catch { fail("load: \(error)") }
            let d = loadClock.now - start
            if round >= warmup { times.append(d.microseconds) }
        }
        return times
    }
    var parts: [(String, [Double])] = []
    parts.append(("recognizer.load()", await time {
        try await DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: modelDir)).load()
    }))
    parts.append(("network weights", await time {
        _ = try RecognitionNetwork(configuration: config.network, weightsURL: modelDir.appendingPathComponent(config.network.weights),
                                   compute: ComputeOptions(environment: ProcessInfo.processInfo.environment))
    }))
    if let lm = config.decoder?.languageModel {
        parts.append(("language model", await time { _ = try CharacterNgramModel(contentsOf: modelDir.appendingPathComponent(lm)) }))
    }
    let report: [String: Any] = [
        "engine": "DigitalInk", "kernels": network.computeKernels, "model": modelDir.path, "repeats": repeats, "warmup": warmup,
        "stage": stage,
        "inks": parts.map { ["id": $0.0, "median_us": percentile($0.1, 50), "p90_us": percentile($0.1, 90), "min_us": $0.1.min() ?? 0,
                             "times_us": $0.1] as [String: Any] },
    ]
    FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]))
    FileHandle.standardOutput.write(Data("\n".utf8))
    exit(0)
}
// "recognize": the public API end to end (validation, features, forward, decoding with the LM,
// confidences and alignment where the library computes them), one recognition at a time.
// --profile: a writer profile (`inkrec adapt`) applied to "recognize" and "page", as `inkrec recognize --profile`.
var recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: modelDir))
if let profilePath {
    guard stage == "recognize" || stage == "page" else { fail("--profile applies to --stage recognize and page") }
    do {
        let profile = try WriterProfile(data: Data(contentsOf: URL(fileURLWithPath: profilePath)), for: recognizer)
        recognizer = recognizer.withOptions { $0.writerProfile = profile }
    } catch { fail("cannot read the profile \(profilePath): \(error)") }
}
if stage == "learn" {
    var pairs: [(Ink, String)] = []
    for file in files {
        do { pairs += try InkFiles.read(file).filter { !$0.label.isEmpty }.map { ($0.ink, $0.label) } } catch { fail("cannot read \(file.path): \(error)") }
    }
    if pairs.isEmpty { fail("--stage learn needs inks with labels (\"label\")") }
    let learnClock = ContinuousClock()
    var times: [Double] = []
    var bytes = 0
    do {
        try await recognizer.load()
        for round in 0..<(warmup + repeats) {
            let profile = try await WriterProfile(for: recognizer, minimumPairs: 0, adapting: nil, steps: steps, checkSteps: checkSteps)
            let start = learnClock.now
            try await profile.learn(from: pairs)
            let d = learnClock.now - start
            if round >= warmup { times.append(d.microseconds) }
            bytes = profile.data().count
        }
    } catch { fail("learn: \(error)") }
    let report: [String: Any] = [
        "engine": "DigitalInk WriterProfile", "blas": BLASInfo.description, "model": modelDir.path, "repeats": repeats,
        "warmup": warmup, "stage": stage, "checkSteps": checkSteps.map { $0 as Any } ?? "default",
        "steps": steps.map { $0 as Any } ?? "default",
        "inks": [["id": "learn from \(pairs.count) pairs", "pairs": pairs.count, "profile_bytes": bytes, "median_us": percentile(times, 50),
                  "p90_us": percentile(times, 90), "min_us": times.min() ?? 0, "times_us": times] as [String: Any]],
    ]
    FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]))
    FileHandle.standardOutput.write(Data("\n".utf8))
    exit(0)
}
// "layout": the page's line segmentation alone (`InkLayout.lines(of:)`); "page": `recognizePage`
// end to end (segmentation, then every line recognized, on one core with `taskset -c 0`).
if stage == "recognize" || stage == "page" { do { try await recognizer.load() } catch { fail("\(error)") } }
var languageModel: CharacterNgramModel? = nil
if stage == "decode-lm", let lm = config.decoder?.languageModel {
    // Bound to the network's labels as the recognizer binds it (an LM with an alphabet, unbound, would
    // score the classes as if they were its own symbols: a different search, 2026-11-30).
    do { languageModel = try CharacterNgramModel(contentsOf: modelDir.appendingPathComponent(lm)).bound(toLabels: config.labels) } catch { fail("\(error)") }
}
let decoder = config.beamSearch(languageModel: languageModel != nil)
// "backprop": writer adaptation's step for one ink, in float (`_FloatLSTMNetwork`): forward with its trace, the
// CTC loss of the ink's label and the gradient of every weight through time.
var floatNetwork: _FloatLSTMNetwork? = nil
if stage == "backprop" {
    do { floatNetwork = try _FloatLSTMNetwork(configuration: config.network, weightsURL: modelDir.appendingPathComponent(config.network.weights)) } catch { fail("\(error)") }
}
var classOf: [Character: Int] = [:]
for (i, l) in config.labels.enumerated() where l.count == 1 { classOf[Character(l)] = i + 1 }
let extractor = FeatureExtractor(config.features)

var dump = Data()
var records: [[String: Any]] = []
let clock = ContinuousClock()
for file in files {
    let inks: [BenchInk]
    do { inks = try InkFiles.read(file) } catch { fail("cannot read \(file.path): \(error)") }
    for (index, item) in inks.enumerated() {
        if stage == "layout" || stage == "page" {
            var times: [Double] = []
            var lines = 0
            for round in 0..<(warmup + repeats) {
                let start = clock.now
                if stage == "layout" {
                    do { lines = try InkLayout.lines(of: item.ink).count } catch { fail("\(file.path) ink \(index): \(error)") }
                } else {
                    do { lines = try await recognizer.recognizePage(item.ink, context: item.context).lines.count } catch { fail("\(file.path) ink \(index): \(error)") }
                }
                let d = clock.now - start
                if round >= warmup { times.append(d.microseconds) }
            }
            records.append([
                "file": file.path, "index": index, "id": item.id, "label": item.label, "lines": lines,
                "strokes": item.ink.strokes.count, "points": item.ink.strokes.reduce(0) { $0 + $1.points.count },
                "median_us": percentile(times, 50), "p90_us": percentile(times, 90), "min_us": times.min() ?? 0,
                "times_us": times,
            ])
            continue
        }
        let features: FeatureMatrix
        do { features = try extractor.features(for: item.ink, writingArea: item.context.writingArea) } catch {
            fail("\(file.path) ink \(index): \(error)")
        }
        var out = network.logProbabilities(features)
        var times: [Double] = []
        times.reserveCapacity(repeats)
        if stage == "recognize" {
            for _ in 0..<warmup { _ = try await recognizer.recognize(item.ink, context: item.context) }
            for _ in 0..<repeats {
                let start = clock.now
                _ = try await recognizer.recognize(item.ink, context: item.context)
                let d = clock.now - start
                times.append(d.microseconds)
            }
        } else if stage != "forward" {
            func once() {
                switch stage {
                case "features": _ = try! extractor.features(for: item.ink, writingArea: item.context.writingArea)
                case "backprop":
                    _ = floatNetwork!.lossAndGradients(features: features.values, frames: features.rows,
                                                       labels: item.label.compactMap { classOf[$0] })
                default: _ = decoder.decode(out, languageModel: languageModel, maxResults: 10)
                }
            }
            for _ in 0..<warmup { once() }
            for _ in 0..<repeats {
                let start = clock.now
                once()
                let d = clock.now - start
                times.append(d.microseconds)
            }
        } else {
            for _ in 0..<warmup { out = network.logProbabilities(features) }
            for _ in 0..<repeats {
                let start = clock.now
                out = network.logProbabilities(features)
                let d = clock.now - start
                times.append(d.microseconds)
            }
        }
        if dumpPath != nil {
            for v in features.values + out.values { withUnsafeBytes(of: v.bitPattern.littleEndian) { dump.append(contentsOf: $0) } }
        }
        records.append([
            "file": file.path, "index": index, "id": item.id, "label": item.label,
            "frames": features.rows, "outFrames": out.rows, "classes": out.columns,
            "median_us": percentile(times, 50), "p90_us": percentile(times, 90), "min_us": times.min() ?? 0,
            "times_us": times,
        ])
    }
}
if let dumpPath {
    do { try dump.write(to: URL(fileURLWithPath: dumpPath)) } catch { fail("cannot write \(dumpPath): \(error)") }
}
let report: [String: Any] = [
    "engine": "DigitalInk RecognitionNetwork",
    "blas": BLASInfo.description,
    "kernels": network.computeKernels,
    "blasThreadsVariable": ProcessInfo.processInfo.environment["DIGITALINK_BLAS_THREADS"] ?? "unset (engine default 1)",
    "model": modelDir.path,
    "stepsPerLineHeight": config.features.stepsPerLineHeight,
    "repeats": repeats, "warmup": warmup, "stage": stage,
    "inks": records,
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
FileHandle.standardOutput.write(json)
FileHandle.standardOutput.write(Data("\n".utf8))
