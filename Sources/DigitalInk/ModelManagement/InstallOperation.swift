/// One running download of one model, shared by every ``ModelDownload`` handle that asked for it
/// while it ran: two concurrent downloads of a model share one transfer.
///
/// The transfer is cancelled when every handle attached to it has been cancelled, or when the
/// model is deleted.
final class InstallOperation: Sendable {
    let model: DigitalInkRecognitionModel

    private struct State {
        var handles: [ObjectIdentifier: ModelDownload] = [:]
        var latest: (sequence: Int, progress: ModelDownloadProgress)?
        var sequence = 0
        var result: Result<InstalledModel, DigitalInkError>?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = LockedState(State())

    init(model: DigitalInkRecognitionModel) {
        self.model = model
    }

    /// Sets the task that performs the operation (once, right after creation).
    func setTask(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Waits until the operation's task has ended.
    func waitUntilFinished() async {
        await state.withLock { $0.task }?.value
    }

    /// Adds a handle: it receives the latest progress at once and every later event, or the
    /// result when the operation has already ended.
    func attach(_ handle: ModelDownload) {
        let (latest, result) = state.withLock { state in
            if state.result == nil { state.handles[ObjectIdentifier(handle)] = handle }
            return (state.latest, state.result)
        }
        if let latest { handle.deliver(latest.progress, sequence: latest.sequence) }
        if let result { handle.complete(result) }
    }

    /// Removes a cancelled handle; cancels the transfer when no handle is left.
    func detach(_ handle: ModelDownload) {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard state.handles.removeValue(forKey: ObjectIdentifier(handle)) != nil,
                state.handles.isEmpty, state.result == nil
            else { return nil }
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Cancels the transfer for every handle.
    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Sends a progress event to every attached handle.
    func publish(_ progress: ModelDownloadProgress) {
        let (sequence, handles) = state.withLock { state in
            state.sequence += 1
            state.latest = (state.sequence, progress)
            return (state.sequence, Array(state.handles.values))
        }
        for handle in handles { handle.deliver(progress, sequence: sequence) }
    }

    /// Ends the operation: every attached handle gets the result.
    func finish(_ result: Result<InstalledModel, DigitalInkError>) {
        let handles = state.withLock { state in
            state.result = result
            defer { state.handles = [:] }
            return Array(state.handles.values)
        }
        for handle in handles { handle.complete(result) }
    }
}
