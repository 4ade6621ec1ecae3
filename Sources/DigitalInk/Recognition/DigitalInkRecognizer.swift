import Foundation

/// Recognizes handwriting (or shapes) with one model.
///
/// The model loads on first use (or on ``load()``), once, however many tasks call at the same time.
/// A recognizer is immutable after loading and safe to use from any number of concurrent tasks.
/// Each recognition runs single-threaded on one of the library's compute threads (one per core),
/// not on Swift's cooperative thread pool, so a busy recognizer never stalls the process's other
/// async work; the calling task is suspended meanwhile. Concurrent calls give the same results as
/// serial ones.
///
/// ```swift
/// let recognizer = DigitalInkRecognizer(options: .init(model: model))
/// let result = try await recognizer.recognize(ink, context: RecognitionContext(preContext: "hello"))
/// print(result.candidates.first?.text ?? "")
/// ```
public final class DigitalInkRecognizer: Sendable {
    public let options: DigitalInkRecognizerOptions
    private let loader: _ModelLoader
    /// The threads recognitions run on (the process's shared pool; a test may give its own).
    let pool: _ComputePool

    public init(options: DigitalInkRecognizerOptions) {
        self.options = options
        self.loader = _ModelLoader(source: options.source, compute: options.compute)
        self.pool = .shared
    }

    /// A recognizer whose recognitions run on `pool` (tests that watch the pool's work).
    convenience init(options: DigitalInkRecognizerOptions, pool: _ComputePool) {
        self.init(options: options, loader: _ModelLoader(source: options.source, compute: options.compute), pool: pool)
    }

    private init(options: DigitalInkRecognizerOptions, loader: _ModelLoader, pool: _ComputePool) {
        self.options = options
        self.loader = loader
        self.pool = pool
    }

    /// A recognizer that shares this one's model (loaded once, held in memory once) but recognizes
    /// with other settings: a form field's hints, another result count, the language model off.
    /// `configure` edits a copy of this recognizer's options; the model and ``ComputeOptions`` stay
    /// this recognizer's. Cheap: nothing is loaded or copied.
    ///
    /// ```swift
    /// let digits = recognizer.withOptions { $0.allowedCharacters = Set("0123456789") }
    /// ```
    public func withOptions(_ configure: (inout DigitalInkRecognizerOptions) -> Void) -> DigitalInkRecognizer {
        var options = self.options
        configure(&options)
        options.compute = self.options.compute  // (the model, `source`, cannot be changed from outside)
        return DigitalInkRecognizer(options: options, loader: loader, pool: pool)
    }

    /// Loads the model now instead of on the first recognition.
    public func load() async throws(DigitalInkError) {
        _ = try await loader.model()
    }

    /// Releases the loaded model's memory (network weights, language model). Recognitions already
    /// running finish with it; a later recognition loads the model again. ML Kit's `close()` does
    /// the same for its recognizer.
    public func unload() async {
        await loader.unload()
    }

    /// ML Kit's name for ``unload()``.
    public func close() async {
        await unload()
    }

    /// Whether the model is loaded now: true once a load has finished (``load()`` or a first
    /// recognition), false before, while loading, after a failed load and after ``unload()``.
    public var isLoaded: Bool {
        get async { await loader.isLoaded }
    }

    /// The direction the model's script is written in (`config.json`'s `"direction"`; left to right
    /// where the model does not say): the reading order ``recognizePage(_:context:)`` puts a line's
    /// words in, and each ``PageRecognitionResult/Line/direction``. Loads the model, as ``load()``
    /// does, if it is not loaded yet.
    ///
    /// ```swift
    /// if try await recognizer.writingDirection == .rightToLeft { textView.baseWritingDirection = .rightToLeft }
    /// ```
    ///
    /// - Throws: the model errors of ``load()`` (not downloaded, corrupt).
    public var writingDirection: WritingDirection {
        get async throws(DigitalInkError) { try await loader.model().configuration.writingDirection }
    }

    /// Completion-handler form of ``load()``. The handler runs on an arbitrary thread.
    public func load(completion: @escaping @Sendable (Result<Void, DigitalInkError>) -> Void) {
        Self.complete(completion) { try await self.load() }
    }

    /// Recognizes `ink`.
    ///
    /// An empty ink gives a result without candidates.
    ///
    /// - Throws: ``DigitalInkError/invalidInk(_:)`` for invalid ink or writing area (including an ink
    ///   too long for its size, ``DigitalInkError/InkIssue/tooLong(frames:limit:)``),
    ///   ``DigitalInkError/invalidOption(name:reason:)`` for options out of range, model errors (not
    ///   downloaded, corrupt), and `CancellationError` when the calling task is cancelled before the
    ///   recognition starts on a compute thread (one that has started finishes: it takes one ink's time).
    /// - Complexity: linear in the ink's length (network and beam search per frame), bounded by the
    ///   frame limit.
    public func recognize(_ ink: Ink, context: RecognitionContext = RecognitionContext()) async throws -> DigitalInkRecognitionResult {
        try options.validate()
        try ink.validate(timestamps: options.timestampValidation)
        try context.writingArea?.validate()
        let model = try await loader.model()
        let options = self.options
        return try await pool.runCancellable { () throws(DigitalInkError) in
            try Self.recognize(ink, context: context, model: model, options: options)
        }
    }

    /// Completion-handler form of ``recognize(_:context:)``, as ML Kit offers. The handler runs on an
    /// arbitrary thread.
    public func recognize(_ ink: Ink, context: RecognitionContext = RecognitionContext(),
                          completion: @escaping @Sendable (Result<DigitalInkRecognitionResult, DigitalInkError>) -> Void) {
        Self.complete(completion) { try await self.recognize(ink, context: context) }
    }

    /// Runs `body` in a task of its own and hands its outcome to `completion`: the
    /// completion-handler forms. Their tasks are never cancelled from outside, so the only error
    /// besides a DigitalInkError, `CancellationError`, becomes ``DigitalInkError/cancelled``.
    static func complete<T: Sendable>(_ completion: @escaping @Sendable (Result<T, DigitalInkError>) -> Void,
                                      _ body: @escaping @Sendable () async throws -> T) {
        Task {
            do {
                completion(.success(try await body()))
            } catch {
                completion(.failure(error as? DigitalInkError ?? .cancelled))
            }
        }
    }

    /// One ink through the line pipeline (``LinePipeline``): features → network → the model's decoder
    /// (which, where the model rescores with views and its best candidates are close, has the network
    /// read the ink's stretched copies) → alignment.
    static func recognize(_ ink: Ink, context: RecognitionContext, model: LoadedModel,
                          options: DigitalInkRecognizerOptions) throws(DigitalInkError) -> DigitalInkRecognitionResult {
        let adaptation = try options.writerProfile?.adaptation(for: model)
        return try LinePipeline(model: model, options: options, adaptation: adaptation).recognize(ink, context: context)
    }

    /// The loaded model (loading it on first use).
    func loadedModel() async throws(DigitalInkError) -> LoadedModel {
        try await loader.model()
    }
}

/// Loads a model once for all concurrent callers; a failed load is retried by the next caller.
actor _ModelLoader {
    private let source: DigitalInkRecognizerOptions.Source
    private let compute: ComputeOptions
    /// The load in progress or done. Typed: the error a load throws is the one callers see.
    private var task: Task<Result<LoadedModel, DigitalInkError>, Never>?
    /// Set when `task` has finished with a model (and `task` is still the current load).
    private var loaded = false

    init(source: DigitalInkRecognizerOptions.Source, compute: ComputeOptions) {
        self.source = source
        self.compute = compute
    }

    var isLoaded: Bool { loaded }

    func unload() {
        task = nil
        loaded = false
    }

    func model() async throws(DigitalInkError) -> LoadedModel {
        let t: Task<Result<LoadedModel, DigitalInkError>, Never>
        if let existing = task {
            t = existing
        } else {
            let source = self.source, compute = self.compute
            t = Task {
                do throws(DigitalInkError) {
                    return .success(try await _ComputePool.shared.run { () throws(DigitalInkError) in
                        switch source {
                        case .directory(let url): return try LoadedModel(directory: url, compute: compute)
                        case .managed(let model, let manager):
                            return try LoadedModel(directory: try manager.modelDirectory(for: model), compute: compute)
                        }
                    })
                } catch {
                    return .failure(error)
                }
            }
            task = t
        }
        switch await t.value {
        case .success(let model):
            if task == t { loaded = true }  // not if unloaded (or loading again) meanwhile
            return model
        case .failure(let error):
            if task == t { task = nil }  // the next caller tries again
            throw error
        }
    }
}
