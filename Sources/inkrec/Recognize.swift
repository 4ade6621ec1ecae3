import ArgumentParser
import DigitalInk
import Foundation

struct Recognize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize ink files (project JSON, InkML, stroke arrays) or a JSON Lines batch.",
        discussion: """
        Values in a file (preContext, writingArea) apply unless an option overrides them.
        Batch mode reads one ink object per line and writes one JSON object per line, in order:
          {"id": "...", "candidates": [{"text": "...", "score": -1.2}]}  or  {"id": "...", "error": "..."}
        """
    )

    @Argument(help: "Ink files to recognize.")
    var files: [String] = []

    @Option(name: .long, help: "A JSON Lines file of inks, or - for standard input.")
    var batch: String?

    @OptionGroup var model: ModelOptions

    @Option(name: .long, help: "Load the model from this directory (its config.json) instead of the model store.")
    var modelDirectory: String?

    @Option(name: .long, help: "Text before the ink; the language model is conditioned on it.")
    var preContext: String?

    @Option(name: .long, help: "Size of the writing area, WIDTHxHEIGHT, in the ink's units.")
    var writingArea: String?

    @Option(name: .long, help: "Most candidates to print.")
    var maxResults: Int = 5

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(name: .long, help: "Decode without the language model.")
    var noLanguageModel = false

    @Option(name: .long, help: ArgumentHelp("Override the language-model weight.", visibility: .hidden))
    var lmWeight: Float?

    @Option(name: .long, help: ArgumentHelp("Override the insertion bonus.", visibility: .hidden))
    var insertionBonus: Float?

    @Option(name: .long, help: ArgumentHelp("Override the end-of-text weight.", visibility: .hidden))
    var endWeight: Float?

    @Option(name: .long, help: ArgumentHelp("Override the beam width.", visibility: .hidden))
    var beamWidth: Int?

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if files.isEmpty && batch == nil { throw ValidationError("give ink files or --batch FILE") }
        if !files.isEmpty && batch != nil { throw ValidationError("give either ink files or --batch, not both") }
        if maxResults < 1 { throw ValidationError("--max-results must be at least 1") }
        if let b = beamWidth, b < 1 { throw ValidationError("--beam-width must be at least 1") }
        if let w = writingArea, Self.parseArea(w) == nil { throw ValidationError("--writing-area must look like 600x120") }
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
                    let result = try await recognizer.recognize(doc.ink, context: context(for: doc))
                    output(file: file, id: doc.id, result: result)
                } catch {
                    printError("error: \(error)")
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    func makeRecognizer() async throws -> DigitalInkRecognizer {
        var options: DigitalInkRecognizerOptions
        if let dir = modelDirectory {
            options = DigitalInkRecognizerOptions(modelDirectory: URL(fileURLWithPath: dir))
        } else {
            let manager = try model.manager()
            let manifest = try await manager.fetchManifest()
            let m = try model.model(in: manifest)
            let available = manifest.models.first { $0.model == m }?.version
            if !manager.isModelDownloaded(m) {
                printError("Installing model \(m.modelIdentifier.languageTag) from \(manager.repository)…")
                _ = try await manager.download(m).wait()
            } else if let available, let installed = manager.installedModel(m)?.version, installed != available {
                printError("Updating model \(m.modelIdentifier.languageTag) from version \(installed) to \(available)…")
                _ = try await manager.download(m).wait()
            }
            options = DigitalInkRecognizerOptions(model: m, modelManager: manager)
        }
        options.maxResultCount = maxResults
        options.useLanguageModel = !noLanguageModel
        options.lmWeight = lmWeight
        options.insertionBonus = insertionBonus
        options.endWeight = endWeight
        options.beamWidth = beamWidth
        return DigitalInkRecognizer(options: options)
    }

    func context(for doc: InkDocument) -> RecognitionContext {
        RecognitionContext(preContext: preContext ?? doc.preContext ?? "",
                           writingArea: writingArea.flatMap(Self.parseArea) ?? doc.writingArea)
    }

    func output(file: String, id: String?, result: DigitalInkRecognitionResult) {
        switch format {
        case .json:
            var o: [String: Any] = ["file": file, "candidates": result.candidates.map(Self.candidateObject)]
            if let id { o["id"] = id }
            print(Self.jsonLine(o))
        case .text:
            guard let best = result.candidates.first else { print("\(file): (no candidates)"); return }
            print("\(file): \(best.text)")
            for c in result.candidates {
                print(String(format: "  %8.3f  %@", c.score, c.text.debugDescription))
            }
        }
    }

    /// Batch mode: lines are recognized concurrently (at most `2 × cores` at a time) and written in
    /// input order, each as soon as it and the lines before it are done, so a program that writes one
    /// line and waits for its answer is answered. Input is read on a thread of its own.
    func runBatch(_ path: String, _ recognizer: DigitalInkRecognizer) async throws {
        let reader: InkBatchReader
        do {
            reader = path == "-" ? InkBatchReader(fileHandle: .standardInput, source: "<stdin>")
                                 : try InkBatchReader(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw fail(error)
        }
        let (entries, entryInput) = AsyncStream<InkBatchReader.Entry>.makeStream(bufferingPolicy: .bufferingNewest(1 << 16))
        let readerThread = Thread {
            for entry in reader { entryInput.yield(entry) }
            entryInput.finish()
        }
        readerThread.start()

        let (answers, answerInput) = AsyncStream<Task<String, Never>>.makeStream()
        let writer = Task {
            for await answer in answers {
                FileHandle.standardOutput.write(Data((await answer.value + "\n").utf8))
            }
        }
        let window = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)
        var inFlight: [Task<String, Never>] = []
        for await entry in entries {
            if inFlight.count >= window { _ = await inFlight.removeFirst().value }
            let answer = Task { await self.answer(entry, recognizer) }
            inFlight.append(answer)
            answerInput.yield(answer)
        }
        answerInput.finish()
        await writer.value
    }

    /// The output line for one batch entry.
    func answer(_ entry: InkBatchReader.Entry, _ recognizer: DigitalInkRecognizer) async -> String {
        switch entry.result {
        case .failure(let e):
            var o: [String: Any] = ["error": "\(e)", "line": entry.line]
            if let id = entry.id { o["id"] = id }
            return Self.jsonLine(o)
        case .success(let doc):
            var o: [String: Any] = [:]
            if let id = doc.id { o["id"] = id }
            do {
                let r = try await recognizer.recognize(doc.ink, context: context(for: doc))
                o["candidates"] = r.candidates.map(Self.candidateObject)
            } catch {
                o["error"] = "\(error)"
                o["line"] = entry.line
            }
            return Self.jsonLine(o)
        }
    }

    /// `{"text": ..., "score": ...}` with the score's shortest `Float` form (-1.2, not -1.2000000476837158).
    static func candidateObject(_ c: DigitalInkRecognitionCandidate) -> [String: Any] {
        ["text": c.text, "score": Double("\(c.score)") ?? Double(c.score)]
    }

    static func jsonLine(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
