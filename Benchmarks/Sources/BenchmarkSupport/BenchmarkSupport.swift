@_spi(Engine) import DigitalInk
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the benchmarks find the model and the inks, and the inks themselves.
///
/// - Model: `DIGITALINK_MODEL_DIR`, else `<repository>/Models/en-US`.
/// - Inks: `Samples/argument.json` (a word of 8 characters) and `Samples/line.json` (a line of 29),
///   plus the UNIPEN sets that `Benchmarks/prepare_inks.py` writes to `Benchmarks/.build/inks/`
///   (`DIGITALINK_BENCH_INKS` overrides the folder): `word8.jsonl`, words of 8 characters, and
///   `line40.jsonl`, lines of about 40 characters, all from writers the model was not trained on.
public enum BenchPaths {
    /// The repository: four levels above this file (`Benchmarks/Sources/BenchmarkSupport/…`).
    public static let repository: URL = {
        if let r = ProcessInfo.processInfo.environment["DIGITALINK_REPO"], !r.isEmpty {
            return URL(fileURLWithPath: r, isDirectory: true)
        }
        var u = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { u.deleteLastPathComponent() }
        return u
    }()

    public static let modelDirectory: URL = {
        if let m = ProcessInfo.processInfo.environment["DIGITALINK_MODEL_DIR"], !m.isEmpty {
            return URL(fileURLWithPath: m, isDirectory: true)
        }
        return repository.appendingPathComponent("Models/en-US", isDirectory: true)
    }()

    public static let inkDirectory: URL = {
        if let d = ProcessInfo.processInfo.environment["DIGITALINK_BENCH_INKS"], !d.isEmpty {
            return URL(fileURLWithPath: d, isDirectory: true)
        }
        return repository.appendingPathComponent("Benchmarks/.build/inks", isDirectory: true)
    }()
}

/// One ink of a benchmark set.
public struct BenchInk: Sendable {
    public var id: String
    public var label: String
    public var ink: Ink
    public var context: RecognitionContext
}

/// A named set of inks; benchmarks over a set take its inks in turn.
public struct InkSet: Sendable {
    public var name: String
    public var description: String
    public var inks: [BenchInk]

    public var meanLabelLength: Double {
        inks.isEmpty ? 0 : Double(inks.reduce(0) { $0 + $1.label.count }) / Double(inks.count)
    }
}

public enum InkFiles {
    /// Reads one ink file (`.json`, `.inkml`: one ink) or a JSON Lines batch (`.jsonl`: one ink a line).
    public static func read(_ url: URL) throws -> [BenchInk] {
        func item(_ d: InkDocument, _ n: Int) -> BenchInk {
            BenchInk(id: d.id ?? "\(url.lastPathComponent)#\(n)", label: d.label ?? "", ink: d.ink, context: d.context)
        }
        if url.pathExtension == "jsonl" {
            var out: [BenchInk] = []
            for entry in try InkBatchReader(contentsOf: url) {
                switch entry.result {
                case .success(let d): out.append(item(d, entry.line))
                case .failure(let e): throw e
                }
            }
            return out
        }
        return [item(try InkDocument.read(contentsOf: url), 1)]
    }
}

public enum InkSets {
    public static let sampleWord = "word-sample"
    public static let sampleLine = "line-sample"
    public static let unipenWords = "word8-unipen"
    public static let unipenLines = "line40-unipen"

    /// The files of each set, in the order the benchmarks use them.
    public static func files() -> [(name: String, description: String, url: URL)] {
        let r = BenchPaths.repository, i = BenchPaths.inkDirectory
        return [
            (sampleWord, "Samples/argument.json, 8 characters", r.appendingPathComponent("Samples/argument.json")),
            (sampleLine, "Samples/line.json, 29 characters", r.appendingPathComponent("Samples/line.json")),
            (unipenWords, "UNIPEN words of 8 characters (validation writers)", i.appendingPathComponent("word8.jsonl")),
            (unipenLines, "UNIPEN lines of 36 to 44 characters (validation writers)", i.appendingPathComponent("line40.jsonl")),
        ]
    }

    /// The sets whose files exist (the UNIPEN ones need `python3 Benchmarks/prepare_inks.py`).
    public static let available: [InkSet] = {
        var sets: [InkSet] = []
        for f in files() {
            guard FileManager.default.fileExists(atPath: f.url.path) else {
                FileHandle.standardError.write(Data("note: \(f.url.path) is missing (run python3 Benchmarks/prepare_inks.py); set \(f.name) skipped\n".utf8))
                continue
            }
            do {
                let inks = try InkFiles.read(f.url)
                if !inks.isEmpty { sets.append(InkSet(name: f.name, description: f.description, inks: inks)) }
            } catch {
                FileHandle.standardError.write(Data("warning: cannot read \(f.url.path): \(error)\n".utf8))
            }
        }
        return sets
    }()

    public static func named(_ name: String) -> InkSet? { available.first { $0.name == name } }
}

/// The pieces of the recognizer loaded separately, as the benchmarks of single stages need them
/// (engine types: part of the library's Engine SPI, and so of this module's).
@_spi(Engine) public struct Pipeline: Sendable {
    public let configuration: ModelConfiguration
    public let extractor: FeatureExtractor
    public let network: RecognitionNetwork
    public let languageModel: CharacterNgramModel?

    public init(modelDirectory: URL = BenchPaths.modelDirectory) throws {
        let config = try ModelConfiguration.load(from: modelDirectory.appendingPathComponent("config.json"))
        configuration = config
        extractor = FeatureExtractor(config.features)
        network = try RecognitionNetwork(configuration: config.network,
                                         weightsURL: modelDirectory.appendingPathComponent(config.network.weights),
                                         compute: ComputeOptions(environment: ProcessInfo.processInfo.environment))
        if let lm = config.decoder?.languageModel {
            languageModel = try CharacterNgramModel(contentsOf: modelDirectory.appendingPathComponent(lm))
        } else {
            languageModel = nil
        }
    }

    /// The features of a benchmark ink; every benchmark ink is within the frame limits.
    public func features(_ ink: BenchInk) -> FeatureMatrix {
        try! extractor.features(for: ink.ink, writingArea: ink.context.writingArea)
    }

    /// The decoder as the recognizer sets it up (model defaults), with or without the language model.
    public func decoder(languageModel useLM: Bool) -> CTCPrefixBeamSearch {
        configuration.beamSearch(languageModel: useLM && languageModel != nil)
    }

    /// Decodes with the recognizer's defaults (10 results, no pre-context).
    public func decode(_ logProbs: FeatureMatrix, languageModel useLM: Bool) -> [CTCPrefixBeamSearch.Hypothesis] {
        decoder(languageModel: useLM).decode(logProbs, languageModel: useLM ? languageModel : nil, maxResults: 10)
    }
}

/// Process statistics (Linux `/proc/self/status`; nil elsewhere).
public enum ProcessMemory {
    /// Resident set size now, in bytes.
    public static var residentBytes: Int? { field("VmRSS") }
    /// Peak resident set size of the process so far (high-water mark), in bytes.
    public static var peakResidentBytes: Int? { field("VmHWM") }

    static func field(_ name: String) -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in s.split(separator: "\n") where line.hasPrefix(name + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return nil
    }
}

/// What the BLAS library says about itself (OpenBLAS: core type and build configuration), looked up
/// at run time so that no header is needed.
public enum BLASInfo {
    public static var description: String {
        #if canImport(Glibc)
        typealias Fn = @convention(c) () -> UnsafePointer<CChar>?
        let handle = dlopen(nil, RTLD_NOW)
        var parts: [String] = []
        for name in ["openblas_get_config", "openblas_get_corename"] {
            if let sym = dlsym(handle, name) {
                let f = unsafeBitCast(sym, to: Fn.self)
                if let p = f() { parts.append(String(cString: p)) }
            }
        }
        return parts.isEmpty ? "unknown BLAS" : "OpenBLAS " + parts.joined(separator: ", core ")
        #else
        return "Accelerate"
        #endif
    }
}

/// Median and other percentiles of a sample (nearest rank).
public func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    let rank = Int((p / 100 * Double(s.count)).rounded(.up)) - 1
    return s[min(max(rank, 0), s.count - 1)]
}
