import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET whose body is handed over chunk by chunk as it arrives, with an idle timeout and
/// task cancellation.
///
/// Each transfer runs in its own `URLSession` (made from the caller's configuration) whose
/// delegate is this object; per-task delegates are not dependable on every platform.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Called once with the response head, before any body. Throw to stop the transfer.
    typealias ResponseHandler = @Sendable (HTTPURLResponse) throws(DigitalInkError) -> Void
    /// Called with each body chunk, in order. Throw to stop the transfer.
    typealias DataHandler = @Sendable (Data) throws(DigitalInkError) -> Void

    private struct State {
        var continuation: CheckedContinuation<DigitalInkError?, Never>?
        var failure: DigitalInkError?
        var lastActivity = ContinuousClock.now
        var finished = false
        var task: URLSessionDataTask?
    }

    private let url: URL
    private let onResponse: ResponseHandler
    private let onData: DataHandler
    private let state = LockedState(State())

    private init(url: URL, onResponse: @escaping ResponseHandler, onData: @escaping DataHandler) {
        self.url = url
        self.onResponse = onResponse
        self.onData = onData
    }

    /// Performs `request`; returns when the body is complete.
    ///
    /// - Throws: ``DigitalInkError/downloadFailed(url:status:reason:)`` for connection failures and
    ///   when no data arrives for `idleTimeout` seconds, ``DigitalInkError/cancelled`` when the
    ///   calling task is cancelled, and whatever the handlers throw.
    static func get(
        _ request: URLRequest,
        session: URLSession,
        idleTimeout: TimeInterval,
        onResponse: @escaping ResponseHandler,
        onData: @escaping DataHandler
    ) async throws(DigitalInkError) {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let transfer = HTTPTransfer(url: url, onResponse: onResponse, onData: onData)
        let configuration = session.configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let transferSession = URLSession(configuration: configuration, delegate: transfer, delegateQueue: queue)
        defer { transferSession.invalidateAndCancel() }
        let task = transferSession.dataTask(with: request)
        if let failure = await transfer.run(task, idleTimeout: idleTimeout) {
            throw failure
        }
    }

    private func run(_ task: URLSessionDataTask, idleTimeout: TimeInterval) async -> DigitalInkError? {
        let watchdog = Task { [weak self] in
            let interval = Duration.milliseconds(max(10, min(250, Int(idleTimeout * 250))))
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                if self.checkIdle(limit: idleTimeout) { return }
            }
        }
        defer { watchdog.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DigitalInkError?, Never>) in
                let cancelledEarly = state.withLock { state -> Bool in
                    state.continuation = continuation
                    state.task = task
                    state.lastActivity = .now
                    return state.failure != nil
                }
                task.resume()
                if cancelledEarly { task.cancel() }
            }
        } onCancel: {
            fail(.cancelled)
        }
    }

    /// Records the first failure and cancels the task; the completion callback then reports it.
    private func fail(_ error: DigitalInkError) {
        let task = state.withLock { state -> URLSessionDataTask? in
            if state.failure == nil { state.failure = error }
            return state.task
        }
        task?.cancel()
    }

    /// Fails the transfer when it has been idle too long; returns true when the transfer is over.
    private func checkIdle(limit: TimeInterval) -> Bool {
        let (finished, idle) = state.withLock { state in
            (state.finished, ContinuousClock.now - state.lastActivity)
        }
        if finished { return true }
        if idle > .milliseconds(Int(limit * 1000)) {
            fail(.downloadFailed(
                url: url.absoluteString, status: nil,
                reason: "timed out: no data for \(Self.seconds(limit))"))
            return true
        }
        return false
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.lastActivity = .now }
        guard let http = response as? HTTPURLResponse else {
            fail(.downloadFailed(url: url.absoluteString, status: nil, reason: "not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        do {
            try onResponse(http)
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let failed = state.withLock { state -> Bool in
            state.lastActivity = .now
            return state.failure != nil
        }
        guard !failed else { return }
        do {
            try onData(data)
        } catch {
            fail(error)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = state.withLock { state in
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            var outcome = state.failure
            if outcome == nil, let error {
                // A transport failure, even after a response head: `status` is only for HTTP errors.
                outcome = .downloadFailed(url: url.absoluteString, status: nil, reason: Self.describe(error))
            }
            return (continuation, outcome)
        }
        continuation?.resume(returning: outcome)
    }

    /// A short reason for a URL loading error.
    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return ns.localizedDescription }
        switch ns.code {
        case NSURLErrorTimedOut: return "timed out"
        case NSURLErrorCannotConnectToHost: return "cannot connect to the server"
        case NSURLErrorCannotFindHost: return "cannot find the server"
        case NSURLErrorNetworkConnectionLost: return "the network connection was lost"
        case NSURLErrorNotConnectedToInternet: return "not connected to the internet"
        case NSURLErrorCancelled: return "cancelled"
        default: return "\(ns.localizedDescription) (URL error \(ns.code))"
        }
    }
}
