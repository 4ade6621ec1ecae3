/// The alignment stage: after decoding, each returned text candidate gets its ``InkSegmentation``
/// (only the returned ones: the work is O(frames · characters) per candidate). Internal.
struct CandidateAligner: Sendable {
    /// How the model's classes spell the candidates' text.
    let labelText: LabelText
    let blank: Int
    /// Input frames per output frame (2 with the network's time reduction).
    let reduction: Int

    init(model: LoadedModel) {
        labelText = model.labelText
        blank = model.configuration.blankIndex ?? 0
        reduction = model.configuration.network.timeReduction
    }

    /// `candidates` with their segments. `output` is the network's output for `ink`, and `origins`
    /// the origin of each of its input frames.
    func align(_ candidates: [DigitalInkRecognitionCandidate], output: FeatureMatrix,
               origins: [FeatureExtractor.FrameOrigin], ink: Ink) -> [DigitalInkRecognitionCandidate] {
        let runs = _StrokeAssignment.strokeRuns(origins)
        return candidates.map { candidate in
            var c = candidate
            c.segments = segmentation(of: candidate.text, output: output, origins: origins, runs: runs, ink: ink)
            return c
        }
    }

    init(labelText: LabelText, blank: Int = 0, reduction: Int) {
        self.labelText = labelText
        self.blank = blank
        self.reduction = reduction
    }

    /// The segmentation of `text`: one segment per `Character` of it, each covering the ink of its
    /// symbols (a jamo model's syllable: its 2 or 3 jamo); nil where the model cannot write the text or
    /// the output cannot emit it.
    func segmentation(of text: String, output: FeatureMatrix, origins: [FeatureExtractor.FrameOrigin],
                      runs: [(stroke: Int, frames: Range<Int>)], ink: Ink) -> InkSegmentation? {
        let characters = Array(text)
        // A leading space, or other context separator (after a pre-context that ends inside a line),
        // costs no frames.
        let offset = characters.first?.isWhitespace == true ? 1 : 0
        var labels: [Int] = []
        var owners: [Int] = []  // the character of each label
        labels.reserveCapacity(characters.count)
        owners.reserveCapacity(characters.count)
        for (i, ch) in characters.enumerated().dropFirst(offset) {
            guard let s = labelText.symbols(of: ch) else { return nil }
            labels.append(contentsOf: s)
            owners.append(contentsOf: repeatElement(i, count: s.count))
        }
        guard let path = CTCForcedAlignment.align(labels, logProbs: output, blank: blank) else { return nil }
        return _StrokeAssignment.segmentation(characters: characters, labels: labels, owners: owners, path: path,
                                              reduction: reduction, logProbs: output, origins: origins, runs: runs, ink: ink)
    }
}

extension InkSegmentation {
    /// The same segmentation with stroke indices mapped through `strokeIndices` (a line's strokes
    /// within its page).
    func mappingStrokes(_ strokeIndices: [Int]) -> InkSegmentation {
        func map(_ spans: [StrokeSpan]) -> [StrokeSpan] {
            spans.map { StrokeSpan(stroke: strokeIndices[$0.stroke], points: $0.points) }
        }
        return InkSegmentation(
            characters: characters.map { CharacterSegment(text: $0.text, strokes: map($0.strokes), boundingBox: $0.boundingBox) },
            words: words.map { WordSegment(text: $0.text, characters: $0.characters, strokes: map($0.strokes), boundingBox: $0.boundingBox) })
    }
}
