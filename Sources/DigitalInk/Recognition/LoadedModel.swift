import Foundation

/// Everything a recognizer needs in memory: configuration, network, language model, label table.
///
/// Files are read once at load; later changes to the model directory (a deleted or replaced model)
/// do not affect a loaded model.
struct LoadedModel: Sendable {
    let directory: URL
    let configuration: ModelConfiguration
    let features: FeatureExtractor
    let network: RecognitionNetwork
    let languageModel: CharacterNgramModel?
    /// Label of each class (blank is "").
    let classLabels: [String]
    let symbolOfCharacter: [Character: Int]
    /// How the classes spell text (``LabelText``): what turns text into symbols and symbols into text.
    var labelText: LabelText {
        LabelText(classLabels: classLabels, symbolOfCharacter: symbolOfCharacter, form: configuration.labelTextForm)
    }
    /// The last stage, chosen by the model's kind.
    let decoder: any CandidateDecoding
    /// The network's weights file.
    let weightsURL: URL
    /// How the network runs (a writer profile's own network runs the same way).
    let compute: ComputeOptions
    /// The weights file's SHA-256, computed the first time a ``WriterProfile`` asks (``networkDigest()``).
    private let digest = LockedState<String?>(nil)

    /// The lower-case hexadecimal SHA-256 of the network's weights file: what a ``WriterProfile`` is bound to.
    /// Read once, the first time it is asked for (loading stays as fast without profiles).
    func networkDigest() throws(DigitalInkError) -> String {
        try digest.withLock { (cached: inout String?) throws(DigitalInkError) -> String in
            if let cached { return cached }
            let value = try FileDigest(of: weightsURL).sha256
            cached = value
            return value
        }
    }

    /// The file `path` of the model in `directory`, with symbolic links resolved; throws unless it
    /// stays inside the model directory, or inside the shared folder of the models root that
    /// `path` names (`../<folder>/…`, see ``ModelFileReference``).
    static func checkInside(_ directory: URL, _ path: String) throws(DigitalInkError) -> URL {
        try ModelFileReference.resolve(path, in: directory)
    }

    init(directory: URL, compute: ComputeOptions = ComputeOptions()) throws(DigitalInkError) {
        let config = try ModelConfiguration.load(from: directory.appendingPathComponent("config.json"))
        let weightsURL = try Self.checkInside(directory, config.network.weights)
        let languageModelURL = try config.decoder?.languageModel.map { (lm) throws(DigitalInkError) in try Self.checkInside(directory, lm) }
        self.directory = directory
        self.weightsURL = weightsURL
        self.compute = compute
        self.configuration = config
        self.features = FeatureExtractor(config.features)
        self.network = try RecognitionNetwork(configuration: config.network,
                                              weightsURL: weightsURL,
                                              compute: compute)
        switch config.modelKind {
        case .text:
            classLabels = [""] + config.labels
            var map: [Character: Int] = [:]
            for (i, l) in config.labels.enumerated() { map[Character(l)] = i + 1 }
            symbolOfCharacter = map
            if let lmPath = config.decoder?.languageModel, let languageModelURL {
                let lm = try CharacterNgramModel(contentsOf: languageModelURL)
                // INKLM1 is keyed by class index: the sizes must agree. INKLM2 maps the labels onto its
                // own alphabet (labels it does not know score its unknown-symbol log-probability).
                guard lm.alphabet != nil || lm.symbolCount == config.network.numClasses else {
                    throw .modelCorrupt(file: lmPath, reason: "\(lm.symbolCount) symbols, the network has \(config.network.numClasses) classes")
                }
                languageModel = lm.bound(toLabels: config.labels)
            } else {
                languageModel = nil
            }
            decoder = CTCTextDecoder(configuration: config, classLabels: classLabels, symbolOfCharacter: symbolOfCharacter,
                                     languageModel: languageModel)
        case .classifier:
            classLabels = config.labels
            symbolOfCharacter = [:]
            languageModel = nil
            decoder = ClassifierDecoder(classLabels: classLabels)
        }
    }
}
