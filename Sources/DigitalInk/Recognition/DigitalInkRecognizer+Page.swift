import Foundation

extension DigitalInkRecognizer {
    /// Recognizes a page: the ink is split into text lines (``PageRecognitionResult/lines``, top to
    /// bottom), each line's strokes are put in reading order (in the model's
    /// ``writingDirection``: ``InkLayout/lines(of:direction:)``), and each line is recognized as
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
    /// Lines run through the network concurrently (one per core, a few lines ahead); the decoding,
    /// which needs the line above, runs in order. The result is the same as recognizing the lines one
    /// after the other. ``recognizePageLines(_:context:)`` gives each line as soon as it is read.
    ///
    /// Cancelling the calling task stops the page within one line's time: no further line starts,
    /// and this throws `CancellationError` once the lines being computed have finished.
    ///
    /// - Throws: what ``recognize(_:context:)`` throws for any line, ``DigitalInkError/InkIssue/tooManyLines(limit:)``
    ///   for a page of more than 200 lines, ``DigitalInkError/invalidOption(name:reason:)`` for
    ///   a model that does not read text (the shapes model reads one whole ink), and `CancellationError`.
    /// - Complexity: O(n log n + n · L) to find L lines in n strokes, then linear in the ink's length.
    public func recognizePage(_ ink: Ink, context: RecognitionContext = RecognitionContext()) async throws -> PageRecognitionResult {
        PageRecognitionResult(lines: try await readPage(ink, context: context) { _ in })
    }

    /// The lines of a page in reading order (top to bottom), each as soon as it is recognized: an app
    /// can show a long page's first lines while the rest are read. The lines, and the errors, are
    /// those of ``recognizePage(_:context:)``; the sequence ends after the last line, or throws.
    ///
    /// The page is read while the sequence is iterated: ending the iteration early (`break`) or
    /// cancelling the iterating task stops the work, as cancelling ``recognizePage(_:context:)`` does.
    ///
    /// ```swift
    /// for try await line in recognizer.recognizePageLines(page) {
    ///     show(line.text, in: line.boundingBox)
    /// }
    /// ```
    public func recognizePageLines(_ ink: Ink, context: RecognitionContext = RecognitionContext())
        -> AsyncThrowingStream<PageRecognitionResult.Line, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    _ = try await self.readPage(ink, context: context) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Completion-handler form of ``recognizePage(_:context:)``. The handler runs on an arbitrary
    /// thread.
    public func recognizePage(_ ink: Ink, context: RecognitionContext = RecognitionContext(),
                              completion: @escaping @Sendable (Result<PageRecognitionResult, DigitalInkError>) -> Void) {
        Self.complete(completion) { try await self.recognizePage(ink, context: context) }
    }

    /// Reads the page line by line, handing each line to `ready` (in order) as it is decoded, and
    /// returns them all.
    ///
    /// The page's flow: segmentation (``LineSegmenter``) → for each line, the line pipeline
    /// (``LinePipeline``): its features, network and views (``LinePipeline/read(_:)``) on the compute
    /// threads, at most `lookahead` lines beyond the one being decoded, then its decoding and alignment
    /// in reading order, under the contexts the line above gives it (``LineContextChain``), with the
    /// segments in the page's stroke indices.
    func readPage(_ ink: Ink, context: RecognitionContext,
                  ready: (PageRecognitionResult.Line) -> Void) async throws -> [PageRecognitionResult.Line] {
        try options.validate()
        try ink.validate(timestamps: options.timestampValidation)
        let model = try await loadedModel()
        guard model.configuration.modelKind == .text else {
            throw DigitalInkError.invalidOption(name: "recognizePage", reason: "the model reads whole inks, not pages of text")
        }
        let options = self.options
        let pool = self.pool
        let adaptation = try options.writerProfile?.adaptation(for: model)  // one snapshot for the whole page
        let direction = model.configuration.writingDirection
        let lines = try await pool.runCancellable { () throws(DigitalInkError) in try LineSegmenter(direction: direction).lines(of: ink) }
        let inks = lines.map { line in Ink(strokes: line.strokeIndices.map { ink.strokes[$0] }) }
        let lookahead = 2 * pool.threadCount

        var chain = LineContextChain(page: context, separator: model.configuration.contextSeparator(options: options),
                                     continuation: model.configuration.lineContinuation(options: options))
        var result: [PageRecognitionResult.Line] = []
        try await withThrowingTaskGroup(of: (Int, Result<LineOutput, any Error>).self) { group in
            // The network for a line (and its views), on a compute thread. The views are read for every
            // line, also one whose decoder will not use them (its best candidates far apart), since
            // which those are is known only when the line above has been decoded. (Each closure makes its
            // `LinePipeline` from `model` and `options`: with one pipeline captured from outside the task
            // group, Swift 6.3's optimizer garbled the line numbers the tasks return.)
            func start(_ k: Int) {
                let lineInk = inks[k]
                group.addTask {
                    do {
                        return (k, .success(try await pool.runCancellable { () throws(DigitalInkError) in
                            try LinePipeline(model: model, options: options, adaptation: adaptation).read(lineInk)
                        }))
                    } catch {
                        return (k, .failure(error))
                    }
                }
            }
            for k in 0..<min(lookahead, inks.count) { start(k) }

            var outputs: [Int: Result<LineOutput, any Error>] = [:]
            for (k, line) in lines.enumerated() {
                while outputs[k] == nil, let (j, output) = try await group.next() { outputs[j] = output }
                let output = try outputs.removeValue(forKey: k)!.get()
                try Task.checkCancellation()
                if k + lookahead < inks.count { start(k + lookahead) }

                let contexts = chain.contexts(isLast: k == lines.count - 1)
                let lineInk = inks[k]
                let strokeIndices = line.strokeIndices
                let candidates: [DigitalInkRecognitionCandidate] = output.network.rows == 0 ? [] : try await pool.runCancellable {
                    () throws(DigitalInkError) -> [DigitalInkRecognitionCandidate] in
                    // Segments in the page's stroke indices (the coordinates are the page's already).
                    try LinePipeline(model: model, options: options).candidates(for: output.network, origins: output.origins, views: InkViews(outputs: output.views, base: { () throws(DigitalInkError) in
                        try ViewReader(model: model, options: options, adaptation: adaptation)?.baseOutput(lineInk, writingArea: nil)
                    }),
                                            eitherOf: contexts, ink: lineInk).map { c in
                        var c = c
                        c.segments = c.segments?.mappingStrokes(strokeIndices)
                        return c
                    }
                }
                let entry = PageRecognitionResult.Line(strokeIndices: line.strokeIndices, boundingBox: line.boundingBox,
                                                       candidates: candidates, direction: direction)
                chain.append(entry.text)
                result.append(entry)
                ready(entry)
            }
        }
        return result
    }
}
