/// The extra reads of an ink that the view rescoring (``ModelConfiguration/ViewRescoring``) compares
/// candidates under: the ink stretched horizontally by each factor, read through the network stages
/// (``NetworkReader``). Internal.
struct ViewReader: Sendable {
    let reader: NetworkReader
    /// The stretch factors, one view each.
    let stretches: [Double]
    /// With a writer's adaptation (``WriterProfile``), the model's own network, which reads the ink as written for
    /// one view more where the adapted network's best two readings are closer than
    /// ``ViewRescorer/shippedNetworkMargin`` (``baseOutput(_:writingArea:)``): a near tie that the writer's change
    /// tipped is so judged by both networks; a reading the change made sure of stands.
    let base: NetworkReader?

    /// The views of a recognition with `options` (nil where the model does not rescore with views).
    init?(model: LoadedModel, options: DigitalInkRecognizerOptions, adaptation: WriterAdaptation? = nil) {
        guard let rescoring = model.configuration.viewRescoring(options: options) else { return nil }
        self.init(reader: NetworkReader(model: model, adaptation: adaptation), stretches: rescoring.stretches,
                  base: adaptation == nil ? nil : NetworkReader(model: model))
    }

    init(reader: NetworkReader, stretches: [Double], base: NetworkReader? = nil) {
        self.reader = reader
        self.stretches = stretches
        self.base = base
    }

    /// `ink` with every x multiplied by `factor` (y and timestamps kept).
    static func stretched(_ ink: Ink, by factor: Double) -> Ink {
        let f = Float(factor)
        return Ink(strokes: ink.strokes.map { stroke in
            Stroke(points: stroke.points.map { p in
                var p = p
                p.x *= f
                return p
            })
        })
    }

    /// The log-probabilities of ``base`` for `ink` as written; nil without a base (no adaptation) or points.
    func baseOutput(_ ink: Ink, writingArea: WritingArea?) throws(DigitalInkError) -> FeatureMatrix? {
        guard let base else { return nil }
        let (output, _) = try base.read(ink, writingArea: writingArea, origins: false)
        return output.rows > 0 ? output : nil
    }

    /// The network's log-probabilities for each stretched view of `ink` that it can read: a view
    /// that would be too long for the frame limit (the original was not) is left out.
    func outputs(_ ink: Ink, writingArea: WritingArea?) throws(DigitalInkError) -> [FeatureMatrix] {
        var outputs: [FeatureMatrix] = []
        for factor in stretches {
            do {
                let (output, _) = try reader.read(Self.stretched(ink, by: factor), writingArea: writingArea, origins: false)
                if output.rows > 0 { outputs.append(output) }
            } catch {
                if case .invalidInk(.tooLong) = error { continue }
                throw error
            }
        }
        return outputs
    }
}

/// The views of one ink as a decoder receives them: read when it first asks (never, for an ink its
/// beam is sure of), or already read (a page reads every line's views concurrently beforehand); and with
/// a writer's adaptation, the model's own network's reading of the ink, read only when asked for
/// (``ViewReader/base``).
struct InkViews {
    private let read: () throws(DigitalInkError) -> [FeatureMatrix]
    private let readBase: (() throws(DigitalInkError) -> FeatureMatrix?)?

    /// No views (a model that does not rescore with them, or a test of the beam alone).
    static var none: InkViews { InkViews(outputs: []) }

    /// Views read by `read` (``ViewReader/outputs(_:writingArea:)``) when asked for, and the shipped network's
    /// reading by `base` (``ViewReader/baseOutput(_:writingArea:)``).
    init(reading read: @escaping () throws(DigitalInkError) -> [FeatureMatrix],
         base: (() throws(DigitalInkError) -> FeatureMatrix?)? = nil) {
        self.read = read
        self.readBase = base
    }

    /// Views already read, and the shipped network's reading by `base` when asked for.
    init(outputs: [FeatureMatrix], base: (() throws(DigitalInkError) -> FeatureMatrix?)? = nil) {
        self.read = { outputs }
        self.readBase = base
    }

    /// The network's log-probabilities for each view (empty: none).
    func outputs() throws(DigitalInkError) -> [FeatureMatrix] { try read() }

    /// The model's own network's log-probabilities for the ink as written, where a writer's adaptation reads it;
    /// nil otherwise.
    func base() throws(DigitalInkError) -> FeatureMatrix? { try readBase?() }
}
