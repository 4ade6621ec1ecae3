import ArgumentParser
@_spi(Engine) import DigitalInk
import Foundation

/// `inkrec adapt`: a writer profile learned from confirmed pairs (``WriterProfile``).
struct Adapt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Learn a writer profile from inks and the texts their writer meant.",
        discussion: """
        --pairs is a JSON Lines file (or - for standard input) of inks in the project's JSON format, each with
        a "text" (or "label") field: what the writer meant. The profile is made for the model's network and
        written to --output (at most 256 KB); `inkrec recognize --profile FILE` applies it. With --profile, an
        earlier profile learns on. A line that cannot be read, or has no text, is reported with its number
        and the command fails without writing anything.

        --suggest-language also compares the confirmed texts with the language models of the other models on
        the same network (with --model-directory, the folders beside it; else the installed models) and says
        which one to recognize with when another fits them clearly better (a writer of another language than
        the model's): the profile applies to it as it is.
        """
    )

    @OptionGroup var model: ModelOptions

    @Option(name: .long, help: "Load the model from this directory (its config.json) instead of the model store.")
    var modelDirectory: String?

    @Option(name: .long, help: ArgumentHelp("The confirmed pairs: a JSON Lines file of inks with a \"text\" field, or -.", valueName: "file"))
    var pairs: String

    @Option(name: .long, help: ArgumentHelp("Where to write the profile.", valueName: "file"))
    var output: String

    @Option(name: .long, help: ArgumentHelp("An earlier profile of this writer to learn on from.", valueName: "file"))
    var profile: String?

    @Option(name: .long, help: "Confirmed pairs a new profile needs before it changes any reading (default \(WriterProfile.defaultMinimumPairs)).")
    var minimumPairs: Int = WriterProfile.defaultMinimumPairs

    @Option(name: .long, help: ArgumentHelp("What a new profile changes: network (a rank-8 change beside every weight; the default where it fits in 256 KB) or head (the output layer alone).", valueName: "part"),
            transform: { (value: String) throws -> _WriterProfileKind in
                guard let kind = _WriterProfileKind(rawValue: value) else { throw ValidationError("--adapt must be network or head") }
                return kind
            })
    var adapt: _WriterProfileKind?

    @Option(name: .long, help: "Adam steps of this learning (default: 28 for every weight, 50 for the output layer): fewer learn faster and change less.")
    var steps: Int?

    @Option(name: .long, help: ArgumentHelp("The seed of a new profile's change to every weight (its start and the order of its steps' pairs; default 41): for measuring how much a figure owes to one seed.", visibility: .hidden))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Adam steps of each change the profile's check learns (default 4; 0: no check, the change applies whatever it reads): for measuring what the check does.", visibility: .hidden))
    var checkSteps: Int?

    @Option(name: .long, help: ArgumentHelp("Learn from the pairs in calls of this many each, in their order (default: all in one call), as an app that calls learn after every few corrections: for measuring what that does.", visibility: .hidden))
    var pairsPerCall: Int?

    @Option(name: .long, help: "Learn on up to this many threads (default 1: one core): the profile's own change and its check's five runs side by side; the same profile.")
    var threads = 1

    @Flag(name: .long, help: "Also say whether another model on the same network fits the confirmed texts clearly better (its language model).")
    var suggestLanguage = false

    @Flag(name: .long, help: "As --suggest-language, and where another model is suggested, check the profile through it (the model to recognize with) and keep that check: whether a profile reads a writer better depends on the language model it is read with.")
    var followLanguage = false

    func validate() throws {
        if !(0...Int(UInt32.max)).contains(minimumPairs) { throw ValidationError("--minimum-pairs must be in 0...\(UInt32.max)") }
        if let steps, !(1...1000).contains(steps) { throw ValidationError("--steps must be in 1...1000") }
        if let checkSteps, !(0...1000).contains(checkSteps) { throw ValidationError("--check-steps must be in 0...1000") }
        if let pairsPerCall, pairsPerCall < 1 { throw ValidationError("--pairs-per-call must be at least 1") }
        if !(1...WriterProfile.maxLearningThreads).contains(threads) {
            throw ValidationError("--threads must be in 1...\(WriterProfile.maxLearningThreads)")
        }
        if seed != nil, profile != nil { throw ValidationError("--seed is for a new profile") }
        if adapt != nil, profile != nil { throw ValidationError("--adapt is for a new profile; an earlier one (--profile) keeps what it changes") }
    }

    func run() async throws {
        var examples: [(Ink, String)] = []
        var failed = false
        for entry in try batchReader(pairs) {
            if let error = entry.error {
                printError("error: line \(entry.line): \(error)")
                failed = true
            } else if let doc = entry.document {
                guard let text = doc.label, !text.isEmpty else {
                    printError("error: line \(entry.line): no \"text\" (what the writer meant)")
                    failed = true
                    continue
                }
                examples.append((doc.ink, text))
            }
        }
        if failed { throw ExitCode(1) }
        do {
            let recognizer = DigitalInkRecognizer(options: try await model.recognizerOptions(modelDirectory: modelDirectory))
            let learner: WriterProfile
            if let profile {
                learner = try WriterProfile(data: try readProfile(profile), for: recognizer, steps: steps, checkSteps: checkSteps)
            } else {
                learner = try await WriterProfile(for: recognizer, minimumPairs: minimumPairs, adapting: adapt, steps: steps, seed: seed, checkSteps: checkSteps)
            }
            let started = Date()
            if let pairsPerCall {
                for start in stride(from: 0, to: examples.count, by: pairsPerCall) {
                    try await learner.learn(from: Array(examples[start..<min(start + pairsPerCall, examples.count)]), threads: threads)
                }
            } else {
                try await learner.learn(from: examples, threads: threads)
            }
            let seconds = Date().timeIntervalSince(started)
            var language: String? = nil
            var checkedThrough = ""
            if suggestLanguage || followLanguage {
                let (found, line) = try await suggest(recognizer, texts: examples.map(\.1))
                language = line
                if followLanguage, let found, try await learner.recheck(through: found.recognizer) != nil {
                    checkedThrough = " through \(found.identifier)"
                }
            }
            let data = learner.data()
            let url = URL(fileURLWithPath: output)
            let partial = url.appendingPathExtension("incomplete")
            try data.write(to: partial)
            // rename(2) replaces an existing profile in one step: never a half-written file under the name.
            guard rename(partial.path, url.path) == 0 else {
                throw DigitalInkError.storageFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
            if learner.pendingPairs > 0 {
                printError("\(output): unchanged (\(learner.pairsLearned) pairs learned before it was saved): a restored profile learns on from \(learner.minimumPairs) new pairs at once, \(learner.pendingPairs) given; pass its earlier pairs again with the new ones")
            } else {
                printError(String(format: "%@: learned from %d pairs in %.2f s (%d in all); %d bytes; %@", output, examples.count,
                                  seconds, learner.pairsLearned, data.count,
                                  learner.isActive ? "active" : learner.pairsLearned < learner.minimumPairs
                                    ? "inactive until \(learner.minimumPairs) pairs" : "inactive: its check showed no gain"))
            }
            if let c = learner.check {
                printError("check\(checkedThrough): \(c.pairs) confirmed pairs (\(c.words) words), each read with a change learned from the others: \(c.wordErrorsWith) word errors (\(c.wordErrorsWithout) without a change)")
            }
            if let language { printError(language) }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

extension Adapt {
    /// Which model of the same network fits `texts` best (``DigitalInkRecognizer/suggestedRecognizer(forConfirmedTexts:among:margin:minimumCharacters:)``)
    /// and its identifier, nil for none, and the line to print on standard error, `language: …`.
    func suggest(_ recognizer: DigitalInkRecognizer, texts: [String]) async throws
        -> ((recognizer: DigitalInkRecognizer, identifier: String)?, String) {
        let own = try await recognizer.languageFit(of: texts)
        var candidates: [(recognizer: DigitalInkRecognizer, how: String)] = []
        if let modelDirectory {
            let dir = URL(fileURLWithPath: modelDirectory).standardizedFileURL
            let weights = try ModelConfiguration.load(from: dir.appendingPathComponent("config.json")).network.weights
            let ownWeights = dir.appendingPathComponent(weights).standardizedFileURL.path
            let siblings = (try? FileManager.default.contentsOfDirectory(at: dir.deletingLastPathComponent(), includingPropertiesForKeys: nil)) ?? []
            for other in siblings.map(\.standardizedFileURL).sorted(by: { $0.path < $1.path }) where other.path != dir.path {
                // Only folders whose config names the same weights file (the library checks its digest too).
                guard let c = try? ModelConfiguration.load(from: other.appendingPathComponent("config.json")),
                      other.appendingPathComponent(c.network.weights).standardizedFileURL.path == ownWeights else { continue }
                candidates.append((DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: other)), "--model-directory \(other.path)"))
            }
        } else {
            let manager = try model.manager()
            let installed = manager.installedModels()
            let network = try model.installedModel(in: manager)?.network
            for m in installed where m.network != nil && m.network == network {
                candidates.append((DigitalInkRecognizer(options: DigitalInkRecognizerOptions(model: m.model, modelManager: manager)),
                                   "--language \(m.model.modelIdentifier.languageTag)"))
            }
        }
        let found = try await recognizer.suggestedRecognizer(forConfirmedTexts: texts, among: candidates.map(\.recognizer))
        if let found, let how = candidates.first(where: { $0.recognizer === found })?.how {
            let fit = try await found.languageFit(of: texts)
            return ((found, fit.identifier), String(format: "language: the confirmed texts read as %@ (%.2f nats per character), not %@ (%.2f): recognize with %@ and this profile",
                                  fit.identifier, fit.natsPerCharacter, own.identifier, own.natsPerCharacter, how))
        }
        return (nil, String(format: "language: %@ fits the confirmed texts (%.2f nats per character over %d characters); no other of the %d models on its network fits them clearly better",
                            own.identifier, own.natsPerCharacter, own.characters, candidates.count))
    }
}

/// The bytes of a profile file, refused before reading when larger than ``WriterProfile/maxDataSize``.
func readProfile(_ path: String) throws -> Data {
    let url = URL(fileURLWithPath: path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    guard let size else { throw DigitalInkError.malformedInput(source: path, line: nil, field: nil, reason: "file not found") }
    guard size <= WriterProfile.maxDataSize else {
        throw DigitalInkError.malformedInput(source: path, line: nil, field: "size", reason: "\(size) bytes, more than a profile's \(WriterProfile.maxDataSize)")
    }
    return try Data(contentsOf: url)
}
