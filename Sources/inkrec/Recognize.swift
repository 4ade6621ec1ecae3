import ArgumentParser
import DigitalInk
import Foundation

struct Recognize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize ink files (project JSON, InkML, stroke arrays) or a JSON Lines batch.",
        discussion: """
        Values in a file (preContext, writingArea) apply unless an option overrides them.
        Batch mode reads one ink object per line and writes exactly one JSON object per input line
        (a blank or unreadable one included), in order, with the input's line number and, when it
        could be read, its id:
          {"id": "...", "line": 3, "candidates": [{"text": "...", "score": -1.2}]}
          {"id": "...", "line": 4, "error": "..."}
        A score that is not a finite number is written as null.
        """
    )

    @Argument(help: "Ink files to recognize.")
    var files: [String] = []

    @Option(name: .long, help: "A JSON Lines file of inks, or - for standard input.")
    var batch: String?

    @OptionGroup var model: ModelOptions

    @Option(name: .long, help: "With --batch, recognize at most this many inks at once (default: one per processor this process may use). A job that runs several inkrec processes side by side (one per Spark task) gives each its share of the cores.")
    var threads: Int?

    @Option(name: .long, help: "Load the model from this directory (its config.json) instead of the model store.")
    var modelDirectory: String?

    @Option(name: .long, help: "Text before the ink; the language model is conditioned on it.")
    var preContext: String?

    @Option(name: .long, help: "Text after the ink (after the insertion point); the language model scores it after each candidate.")
    var postContext: String?

    @Option(name: .long, help: "Size of the writing area, WIDTHxHEIGHT, in the ink's units.")
    var writingArea: String?

    @Option(name: .long, help: "Most candidates to print (1...\(DigitalInkRecognizerOptions.maxResultLimit)).")
    var maxResults: Int = 5

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: "Only these characters may be output (e.g. 0123456789 for a digits field; include a space to allow several words).")
    var charset: String?

    @Option(name: .long, help: ArgumentHelp("A file of words or phrases, one per line (UTF-8), that the decoder prefers; with --strict, the only texts allowed.", valueName: "file"),
            transform: VocabularyFile.init(path:))
    var vocabulary: VocabularyFile?

    @Option(name: .long, help: "Score added per matched character of a --vocabulary entry (0...20, default \(RecognitionVocabulary.defaultWeight)).")
    var vocabularyWeight: Float = RecognitionVocabulary.defaultWeight

    @Flag(name: .long, help: "Return only entries of --vocabulary.")
    var strict = false

    @Flag(name: .long, help: "With --format json or --batch, leave out where each character and word is (the candidates' characters and words): a tenth of the output, for jobs that keep only the texts.")
    var noSegments = false

    @Option(name: .long, help: ArgumentHelp("A writer profile (inkrec adapt) to read with: it must be made for this model's network.", valueName: "file"))
    var profile: String?

    @Flag(name: .long, help: "Decode without the language model.")
    var noLanguageModel = false

    @Flag(name: .long, help: "Read each ink as a page: split it into text lines, recognize each (the line above is the pre-context of the line below, weighed against a fresh start), print the page's text; with --format json, the lines with their stroke indices, boxes and candidates.")
    var page = false

    @Flag(name: .long, help: "Reject inks whose timestamps go backwards inside a stroke (by default they are read with a warning; timestamps are not used).")
    var strictTimestamps = false

    @Option(name: .long, help: ArgumentHelp("Override the language-model weight.", visibility: .hidden))
    var lmWeight: Float?

    @Option(name: .long, help: ArgumentHelp("Override the insertion bonus.", visibility: .hidden))
    var insertionBonus: Float?

    @Option(name: .long, help: ArgumentHelp("Override the end-of-text weight.", visibility: .hidden))
    var endWeight: Float?

    @Option(name: .long, help: ArgumentHelp("Override the beam width.", visibility: .hidden))
    var beamWidth: Int?

    @Option(name: .long, help: ArgumentHelp("Override the beam threshold (natural-log units; inf: none).", visibility: .hidden))
    var beamThreshold: Float?

    @Option(name: .long, help: ArgumentHelp("Override the most symbols a frame may extend the prefixes with.", visibility: .hidden))
    var symbolsPerFrame: Int?

    @Option(name: .long, help: ArgumentHelp("Override the text that joins a pre-context to the ink's text (\"\" for a language without spaces).", visibility: .hidden))
    var contextSeparator: String?

    @Option(name: .long, help: ArgumentHelp("Override how likely a page's line is to go on from the line above (0...1; 1: always).", visibility: .hidden))
    var lineContinuation: Float?

    @Option(name: .long, help: ArgumentHelp("Override the weight of the rescoring with stretched views of the ink (0: off, one network pass).", visibility: .hidden))
    var viewWeight: Float?

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if files.isEmpty && batch == nil { throw ValidationError("give ink files or --batch FILE") }
        if !files.isEmpty && batch != nil { throw ValidationError("give either ink files or --batch, not both") }
        if let w = writingArea, Self.parseArea(w) == nil { throw ValidationError("--writing-area must look like 600x120, both sides finite and positive") }
        if strict && vocabulary == nil { throw ValidationError("--strict needs --vocabulary FILE") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be in 1...256") }
        if threads != nil && batch == nil { throw ValidationError("--threads applies to --batch") }
        do throws(DigitalInkError) { try recognizerSettings(DigitalInkRecognizerOptions(modelDirectory: URL(fileURLWithPath: "/"))).validate() } catch {
            switch error {
            case .invalidOption(let name, let reason): throw ValidationError("--\(Self.flagName[name] ?? name): \(reason)")
            default: throw ValidationError("\(error)")
            }
        }
    }

    /// The command-line flag of each recognizer option, for error messages.
    static let flagName = ["allowedCharacters": "charset", "vocabulary": "vocabulary", "vocabulary.weight": "vocabulary-weight", "maxResultCount": "max-results", "beamWidth": "beam-width", "lmWeight": "lm-weight",
                          "insertionBonus": "insertion-bonus", "endWeight": "end-weight", "beamThreshold": "beam-threshold", "symbolsPerFrame": "symbols-per-frame",
                          "contextSeparator": "context-separator", "lineContinuation": "line-continuation", "viewWeight": "view-weight"]

    /// `options` with this command's settings.
    func recognizerSettings(_ options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> DigitalInkRecognizerOptions {
        var options = options
        if let vocabulary {
            options.vocabulary = try RecognitionVocabulary(vocabulary.entries, weight: vocabularyWeight, strict: strict)
        }
        options.maxResultCount = maxResults
        options.useLanguageModel = !noLanguageModel
        options.decoder = DecoderSettings(beamWidth: beamWidth, lmWeight: lmWeight, insertionBonus: insertionBonus, endWeight: endWeight,
                                          beamThreshold: beamThreshold, symbolsPerFrame: symbolsPerFrame,
                                          contextSeparator: contextSeparator, lineContinuation: lineContinuation, viewWeight: viewWeight)
        options.timestampValidation = strictTimestamps ? .strict : .lenient
        options.allowedCharacters = charset.map(Set.init)
        options.compute = ComputeOptions(environment: ProcessInfo.processInfo.environment)
        return options
    }

    static func parseArea(_ s: String) -> WritingArea? {
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Float(parts[0]), let h = Float(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
        return WritingArea(width: w, height: h)
    }

    func run() async throws {
        let recognizer: DigitalInkRecognizer
        do {
            recognizer = try await makeRecognizer()
            try await recognizer.load()
        } catch {
            throw fail(error)
        }
        if let batch {
            try await runBatch(batch, recognizer)
        } else {
            var failed = false
            for file in files {
                do {
                    let doc = try InkDocument.read(contentsOf: URL(fileURLWithPath: file))
                    warnAboutTimestamps(doc.ink, at: file)
                    if page {
                        let result = try await recognizer.recognizePage(doc.ink, context: context(for: doc))
                        outputPage(file: file, id: doc.id, result: result)
                    } else {
                        let result = try await recognizer.recognize(doc.ink, context: context(for: doc))
                        output(file: file, id: doc.id, result: result)
                    }
                } catch {
                    printError("error: \(error)")
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    /// Says on standard error that `ink` has a timestamp going backwards (read anyway, unless
    /// `--strict-timestamps`, when recognition rejects it).
    func warnAboutTimestamps(_ ink: Ink, at place: String) {
        guard !strictTimestamps, let (s, p) = ink.firstDecreasingTimestamp else { return }
        printError("warning: \(place): stroke \(s) point \(p) has a timestamp earlier than the point before it; read anyway (timestamps are not used)")
    }

    func makeRecognizer() async throws -> DigitalInkRecognizer {
        var options = try recognizerSettings(try await model.recognizerOptions(modelDirectory: modelDirectory))
        if let profile { options.writerProfile = try WriterProfile(data: try readProfile(profile)) }
        return DigitalInkRecognizer(options: options)
    }

    func context(for doc: InkDocument) -> RecognitionContext {
        RecognitionContext(preContext: preContext ?? doc.preContext ?? "", postContext: postContext ?? "",
                           writingArea: writingArea.flatMap(Self.parseArea) ?? doc.writingArea)
    }

    /// A page: its text under the file's name, or (JSON) its lines.
    func outputPage(file: String, id: String?, result: PageRecognitionResult) {
        switch format {
        case .json:
            var o = RecognitionJSON.page(shown(result))
            o["file"] = file
            if let id { o["id"] = id }
            print(RecognitionJSON.line(o))
        case .text:
            print("\(file):")
            for line in result.lines { print("  \(line.text)") }
        }
    }

    func output(file: String, id: String?, result: DigitalInkRecognitionResult) {
        switch format {
        case .json:
            var o = RecognitionJSON.result(shown(result))
            o["file"] = file
            if let id { o["id"] = id }
            print(RecognitionJSON.line(o))
        case .text:
            guard let best = result.candidates.first else { print("\(file): (no candidates)"); return }
            print("\(file): \(best.text)")
            for c in result.candidates {
                // Text candidates: score, then the confidence (the shapes model's score is its confidence).
                if let confidence = c.confidence, confidence != c.score {
                    print(String(format: "  %8.3f  %5.1f%%  %@", c.score, 100 * confidence, c.text.debugDescription))
                } else {
                    print(String(format: "  %8.3f  %@", c.score, c.text.debugDescription))
                }
            }
        }
    }

    /// `result` as written: without its candidates' segments under `--no-segments`.
    func shown(_ result: DigitalInkRecognitionResult) -> DigitalInkRecognitionResult {
        noSegments ? DigitalInkRecognitionResult(candidates: result.candidates.map(Self.withoutSegments)) : result
    }

    func shown(_ result: PageRecognitionResult) -> PageRecognitionResult {
        guard noSegments else { return result }
        return PageRecognitionResult(lines: result.lines.map { line in
            var line = line
            line.candidates = line.candidates.map(Self.withoutSegments)
            return line
        })
    }

    static func withoutSegments(_ c: DigitalInkRecognitionCandidate) -> DigitalInkRecognitionCandidate {
        var c = c
        c.segments = nil
        return c
    }

    /// Batch mode: lines are recognized concurrently and written in input order, each as soon as it
    /// and the lines before it are done, so a program that writes one line and waits for its answer
    /// is answered. Input is read on a thread of its own, at most `window` lines ahead of the output
    /// (back-pressure: the reader waits), so memory stays flat however long the input is.
    ///
    /// With `--threads N`, at most N inks are recognized at once (the others wait for a turn, in input
    /// order), so that N cores are busy; the reader stays at most `4 × N` lines ahead.
    func runBatch(_ path: String, _ recognizer: DigitalInkRecognizer) async throws {
        let reader = try batchReader(path)
        let parallel = threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        let window = 4 * parallel
        let turns = threads.map(BatchTurns.init(count:))
        let slots = DispatchSemaphore(value: window)
        // The reader thread only splits lines; each line is parsed in the task that recognizes it, so
        // that the parsing runs on all cores too.
        let (entries, entryInput) = AsyncStream<InkBatchReader.PendingLine>.makeStream()
        let readerThread = Thread {
            var lines = reader.makeIterator()
            while let line = lines.nextPending() {
                slots.wait()  // released when an answer has been written
                entryInput.yield(line)
            }
            entryInput.finish()
        }
        readerThread.start()

        let (answers, answerInput) = AsyncStream<Task<String?, Never>>.makeStream()
        let writer = Task {
            for await answer in answers {
                if let text = await answer.value { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
                slots.signal()
            }
        }
        for await line in entries {
            answerInput.yield(Task { () async -> String? in
                await turns?.take()
                defer { turns?.give() }
                guard let entry = line.entry() else { return nil }  // a blank line that is skipped
                return await self.answer(entry, recognizer)
            })
        }
        answerInput.finish()
        await writer.value
    }

    /// The output line for one batch entry: always its line number, its id when it could be read,
    /// and either candidates or an error.
    func answer(_ entry: InkBatchReader.Entry, _ recognizer: DigitalInkRecognizer) async -> String {
        var o: [String: Any] = ["line": entry.line]
        if let id = entry.id { o["id"] = id }
        switch entry.result {
        case .failure(let e):
            o["error"] = "\(e)"
        case .success(let doc):
            warnAboutTimestamps(doc.ink, at: "line \(entry.line)")
            do {
                if page {
                    let r = try await recognizer.recognizePage(doc.ink, context: context(for: doc))
                    o.merge(RecognitionJSON.page(shown(r))) { old, _ in old }
                } else {
                    let r = try await recognizer.recognize(doc.ink, context: context(for: doc))
                    o.merge(RecognitionJSON.result(shown(r))) { old, _ in old }
                }
            } catch {
                o["error"] = "\(error)"
            }
        }
        return RecognitionJSON.line(o)
    }

}

/// The entries of a `--vocabulary` file: one per line, UTF-8, surrounding spaces and blank lines
/// ignored; at most 64 MB.
struct VocabularyFile {
    static let maxBytes = 64 << 20
    let entries: [String]

    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > Self.maxBytes { throw ValidationError("\(path): larger than 64 MB") }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ValidationError("cannot read \(path): \(error.localizedDescription)") }
        guard let text = String(data: data, encoding: .utf8) else { throw ValidationError("\(path): not UTF-8 text") }
        entries = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if entries.isEmpty { throw ValidationError("\(path): no entries") }
    }
}

/// At most `count` batch lines recognized at once (`inkrec recognize --batch --threads N`): a line's task
/// takes a turn before it parses and recognizes its ink and gives it back after; waiting tasks get their
/// turns in the order they asked.
final class BatchTurns: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    init(count: Int) { free = count }

    func take() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if free > 0 {
                free -= 1
                lock.unlock()
                c.resume()
            } else {
                waiting.append(c)
                lock.unlock()
            }
        }
    }

    func give() {
        lock.lock()
        if head < waiting.count {
            let next = waiting[head]
            head += 1
            if head == waiting.count { waiting.removeAll(keepingCapacity: true); head = 0 }
            lock.unlock()
            next.resume()  // the turn passes straight on
        } else {
            free += 1
            lock.unlock()
        }
    }
}
