import Foundation

/// A model download in progress, returned by ``ModelManager/download(_:conditions:)``.
///
/// Use it in whichever style suits the caller:
///
/// ```swift
/// // Await the result.
/// let installed = try await manager.download(model).wait()
///
/// // Follow progress events; the sequence ends when the model is installed and throws a
/// // DigitalInkError when the download fails.
/// for try await event in manager.download(model) {
///     print(event.phase, event.fractionCompleted)
/// }
///
/// // ML Kit style: observe `progress` (a Foundation Progress) and the
/// // .digitalInkModelDownloadDidSucceed / .digitalInkModelDownloadDidFail notifications.
/// let progress = manager.download(model).progress
/// ```
///
/// Iterate a download at most once. When the iterating task is cancelled, or ``cancel()`` or
/// `progress.cancel()` is called, this handle ends with ``DigitalInkError/cancelled``; the
/// transfer itself stops when every caller that joined it has cancelled (concurrent downloads of
/// one model share one transfer).
public final class ModelDownload: AsyncSequence, Sendable {
    /// Each element is one progress event.
    public typealias Element = ModelDownloadProgress
    /// Iterates the progress events; throws the ``DigitalInkError`` a failed download ends with.
    public typealias AsyncIterator = AsyncThrowingStream<ModelDownloadProgress, any Error>.Iterator

    /// The model being downloaded.
    public let model: DigitalInkRecognitionModel
    /// Foundation progress, in bytes; cancelling it cancels this handle.
    public let progress: Progress

    private struct State {
        var result: Result<InstalledModel, DigitalInkError>?
        var waiters: [CheckedContinuation<Result<InstalledModel, DigitalInkError>, Never>] = []
        var latest: ModelDownloadProgress?
        var sequence = 0
    }

    private let operation: InstallOperation
    private let updates: AsyncThrowingStream<ModelDownloadProgress, any Error>
    private let continuation: AsyncThrowingStream<ModelDownloadProgress, any Error>.Continuation
    private let state = LockedState(State())

    init(operation: InstallOperation) {
        self.operation = operation
        self.model = operation.model
        (updates, continuation) = AsyncThrowingStream.makeStream(
            of: ModelDownloadProgress.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(256))
        progress = Progress(totalUnitCount: 1)
        progress.isCancellable = true
        progress.isPausable = false
        progress.cancellationHandler = { [weak self] in self?.cancel() }
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel() }
        }
    }

    /// The iterator over this download's progress events. Iterate a download at most once.
    public func makeAsyncIterator() -> AsyncIterator {
        updates.makeAsyncIterator()
    }

    /// The most recent progress event, if any.
    public var latestProgress: ModelDownloadProgress? { state.withLock { $0.latest } }

    /// The outcome, or nil while the download runs.
    public var result: Result<InstalledModel, DigitalInkError>? { state.withLock { $0.result } }

    /// Waits until the model is installed and returns it.
    ///
    /// Cancelling the waiting task cancels this handle (see ``cancel()``).
    ///
    /// - Throws: ``DigitalInkError/modelNotFound(identifier:)``,
    ///   ``DigitalInkError/downloadFailed(url:status:reason:)``,
    ///   ``DigitalInkError/checksumMismatch(file:expected:actual:)``,
    ///   ``DigitalInkError/storageFailed(path:reason:)``,
    ///   ``DigitalInkError/manifestMalformed(source:reason:)`` or ``DigitalInkError/cancelled``.
    @discardableResult
    public func wait() async throws(DigitalInkError) -> InstalledModel {
        try await outcome().get()
    }

    /// Waits for the outcome without throwing.
    func outcome() async -> Result<InstalledModel, DigitalInkError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let result = state.withLock { state in
                    if state.result == nil { state.waiters.append(continuation) }
                    return state.result
                }
                if let result { continuation.resume(returning: result) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops this handle with ``DigitalInkError/cancelled``. The transfer stops too unless another
    /// caller is still waiting for the same model.
    public func cancel() {
        complete(.failure(.cancelled))
        operation.detach(self)
    }

    /// Takes a progress event from the operation; older events arriving late are dropped.
    func deliver(_ event: ModelDownloadProgress, sequence: Int) {
        let accepted = state.withLock { state -> Bool in
            guard state.result == nil, sequence > state.sequence else { return false }
            state.sequence = sequence
            state.latest = event
            return true
        }
        guard accepted else { return }
        continuation.yield(event)
        if event.totalBytes > 0, progress.totalUnitCount != event.totalBytes {
            progress.totalUnitCount = event.totalBytes
        }
        progress.completedUnitCount = event.phase == .installed ? progress.totalUnitCount : event.completedBytes
    }

    /// Ends the handle with `result` (only the first call counts).
    func complete(_ result: Result<InstalledModel, DigitalInkError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<InstalledModel, DigitalInkError>, Never>]? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        switch result {
        case .success:
            progress.completedUnitCount = progress.totalUnitCount
            continuation.finish()
        case .failure(let error):
            continuation.finish(throwing: error)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}
