// inkrec-bench-memory: peak resident memory of a process that holds one recognizer.
//
//     inkrec-bench-memory [--model DIR] INK_FILE...
//
// Reads the inks, notes the resident set size (RSS), loads one DigitalInkRecognizer, recognizes every
// ink once (serially, with the language model), and prints as JSON the RSS before the load, after it,
// and the process's peak RSS (Linux VmHWM: the whole process, Swift runtime and inks included).
@_spi(Engine) import BenchmarkSupport
@_spi(Engine) import DigitalInk
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("inkrec-bench-memory: \(message)\n".utf8))
    exit(2)
}

var modelDir = BenchPaths.modelDirectory
var files: [URL] = []
var args = CommandLine.arguments.dropFirst()
@MainActor func value(of option: String) -> String {
    guard let v = args.popFirst() else { fail("\(option) needs a value") }
    return v
}
while let a = args.popFirst() {
    switch a {
    case "--model": modelDir = URL(fileURLWithPath: value(of: "--model"), isDirectory: true)
    case "-h", "--help":
        print("usage: inkrec-bench-memory [--model DIR] INK_FILE...")
        exit(0)
    default: files.append(URL(fileURLWithPath: a))
    }
}

var inks: [BenchInk] = []
for f in files {
    do { inks += try InkFiles.read(f) } catch { fail("cannot read \(f.path): \(error)") }
}
let before = ProcessMemory.residentBytes ?? -1
let peakBefore = ProcessMemory.peakResidentBytes ?? -1
let recognizer = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: modelDir))
let clock = ContinuousClock()
let t0 = clock.now
do { try await recognizer.load() } catch { fail("cannot load \(modelDir.path): \(error)") }
let loadTime = clock.now - t0
let afterLoad = ProcessMemory.residentBytes ?? -1
var recognized = 0
for item in inks {
    do {
        let r = try await recognizer.recognize(item.ink, context: item.context)
        if r.best != nil { recognized += 1 }
    } catch { fail("recognition of \(item.id) failed: \(error)") }
}
let report: [String: Any] = [
    "model": modelDir.path,
    "inks": inks.count,
    "recognized": recognized,
    "rssBeforeLoadBytes": before,
    "peakRSSBeforeLoadBytes": peakBefore,
    "rssAfterLoadBytes": afterLoad,
    "rssAfterRecognitionBytes": ProcessMemory.residentBytes ?? -1,
    "peakRSSBytes": ProcessMemory.peakResidentBytes ?? -1,
    "coldishLoadMs": Double(loadTime.components.attoseconds) * 1e-15 + Double(loadTime.components.seconds) * 1e3,
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
FileHandle.standardOutput.write(json)
FileHandle.standardOutput.write(Data("\n".utf8))
