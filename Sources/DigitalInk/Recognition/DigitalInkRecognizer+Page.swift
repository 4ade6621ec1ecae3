import Foundation

extension DigitalInkRecognizer {
    /// Recognizes a page: the ink is split into text lines (``PageRecognitionResult/lines``, top to
    /// bottom), each line's strokes are put in reading order, and each line is recognized as
    /// ``recognize(_:context:)`` would recognize it alone. The text of the line above, followed by
    /// the ``DecoderSettings/contextSeparator`` (the model's: a space, or nothing for a language
    /// written without spaces), is the pre-context of the line below; `context.preContext` is the
    /// first line's and `context.postContext` follows the last line. The writing area, which
    /// describes one line, is not used.
    ///
    /// A line may also start afresh (a new sentence, a list item, a heading) rather than go on from
    /// the line above: each line below the first is read under both pre-contexts, the line above's
    /// text and none, and a candidate's score weighs its two scores by the prior
    /// ``DecoderSettings/lineContinuation`` (the model's, else 0.5; `1` reads after the line above only).
    ///
    /// Lines run through the network concurrently (one per core); the decoding, which needs the line
    /// above, runs in order. The result is the same as recognizing the lines one after the other.
    ///
    /// - Throws: what ``recognize(_:context:)`` throws for any line, ``DigitalInkError/InkIssue/tooManyLines(limit:)``
    ///   for a page of more than 200 lines, and ``DigitalInkError/invalidOption(name:reason:)`` for
    ///   a model that does not read text (the shapes model reads one whole ink).
    /// - Complexity: O(n log n + n · L) to find L lines in n strokes, then linear in the ink's length.
    public func recognizePage(_ ink: Ink, context: RecognitionContext = RecognitionContext()) async throws(DigitalInkError) -> PageRecognitionResult {
        try options.validate()
        try ink.validate(timestamps: options.timestampValidation)
        let model = try await loadedModel()
        guard model.configuration.modelKind == .text else {
            throw .invalidOption(name: "recognizePage", reason: "the model reads whole inks, not pages of text")
        }
        let options = self.options
        let pool = _ComputePool.shared
        let lines = try await pool.run { () throws(DigitalInkError) in try LineSegmenter().lines(of: ink) }
        let inks = lines.map { line in Ink(strokes: line.strokes.map { ink.strokes[$0] }) }

        // The network for every line (and its views), concurrently (each on a compute thread). The views
        // are read here for every line, also one whose decoder will not use them (its best candidates
        // far apart), since which those are is known only when the line above has been decoded.
        typealias Output = (FeatureMatrix, [FeatureExtractor.FrameOrigin]?, views: [FeatureMatrix])
        var outputs = [Result<Output, DigitalInkError>?](repeating: nil, count: inks.count)
        await withTaskGroup(of: (Int, Result<Output, DigitalInkError>).self) { group in
            for (k, lineInk) in inks.enumerated() {
                group.addTask {
                    let r = await pool.run { () -> Result<Output, DigitalInkError> in
                        Result { () throws(DigitalInkError) in
                            let (output, origins) = try Self.networkOutput(lineInk, writingArea: nil, model: model)
                            let views = output.rows == 0 ? []
                                : try ViewRescorer.viewOutputs(lineInk, writingArea: nil, model: model, options: options)
                            return (output, origins, views)
                        }
                    }
                    return (k, r)
                }
            }
            for await (k, r) in group { outputs[k] = r }
        }

        // Decoding in order, each line's pre-context the line above.
        var result: [PageRecognitionResult.Line] = []
        var preContext = context.preContext
        var hasLineAbove = false  // a line with text above this one: read it both ways
        let separator = model.configuration.contextSeparator(options: options)
        let continuation = model.configuration.lineContinuation(options: options)
        for (k, line) in lines.enumerated() {
            let (output, origins, views) = try outputs[k]!.get()
            // The page's post-context follows its last line.
            let postContext = k == lines.count - 1 ? context.postContext : ""
            let contexts: [(context: RecognitionContext, prior: Float)] = !hasLineAbove
                ? [(RecognitionContext(preContext: preContext, postContext: postContext), Float(1))]
                : [(RecognitionContext(preContext: preContext, postContext: postContext), continuation),
                   (RecognitionContext(preContext: "", postContext: postContext), 1 - continuation)]
            let lineInk = inks[k]
            let strokeIndices = line.strokes
            let candidates: [DigitalInkRecognitionCandidate] = output.rows == 0 ? [] : try await pool.run {
                () throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] in
                // Segments in the page's stroke indices (the coordinates are the page's already).
                let aligned = Self.align(try model.decoder.candidates(for: output, views: InkViews(outputs: views), eitherOf: contexts,
                                                                      options: options),
                                         output: output, origins: origins, ink: lineInk, model: model)
                return aligned.map { (c: DigitalInkRecognitionCandidate) -> DigitalInkRecognitionCandidate in
                    var c = c
                    c.segments = c.segments?.mappingStrokes(strokeIndices)
                    return c
                }
            }
            let entry = PageRecognitionResult.Line(strokeIndices: line.strokes, boundingBox: BoundingBox(strokes: line.strokes, of: ink),
                                                   candidates: candidates)
            if !entry.text.isEmpty {
                hasLineAbove = true
                preContext = entry.text + separator
            }
            result.append(entry)
        }
        return PageRecognitionResult(lines: result)
    }

    /// Completion-handler form of ``recognizePage(_:context:)``. The handler runs on an arbitrary
    /// thread.
    public func recognizePage(_ ink: Ink, context: RecognitionContext = RecognitionContext(),
                              completion: @escaping @Sendable (Result<PageRecognitionResult, DigitalInkError>) -> Void) {
        Task {
            do throws(DigitalInkError) {
                completion(.success(try await recognizePage(ink, context: context)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
