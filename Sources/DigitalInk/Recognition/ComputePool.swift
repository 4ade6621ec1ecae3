import _InkKernels
import Foundation

/// A fixed set of threads that run CPU-bound work (feature extraction, the network, the beam
/// search) off Swift's cooperative thread pool.
///
/// A recognition takes milliseconds to a second of one core without a suspension point. Run on the
/// cooperative pool, a few of them occupy all its threads (one per core) and every other task of
/// the process waits: a download's idle-timeout checker, a server's request handlers. Work submitted
/// here waits in a FIFO queue for one of the pool's threads instead; the awaiting task is suspended,
/// so its cooperative thread is free meanwhile.
///
/// Work runs in submission order when a thread is free; at most `threadCount` items run at once.
final class _ComputePool: @unchecked Sendable {
    /// The pool recognizers use: one thread per processor this process may run on.
    static let shared = _ComputePool(threadCount: availableProcessors)

    /// The processors this process may run on (its CPU affinity on Linux); at least 1.
    static var availableProcessors: Int { Int(ink_available_processors()) }

    let threadCount: Int
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var head = 0

    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        for i in 0..<self.threadCount {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "DigitalInk.compute.\(i)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Runs `work` on one of the pool's threads and returns its result. The caller's task is
    /// suspended (not blocked) until then. Not cancellable: for work shared by several callers
    /// (a model's load), which one caller's cancellation must not stop.
    func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                continuation.resume(returning: Result { () throws(E) -> T in try work() })
            }
        }
        return try result.get()
    }

    /// Runs `work` on one of the pool's threads, as ``run(_:)``, unless the calling task is cancelled
    /// first: cancelled before `work` starts (or while it waits in the queue), `work` never runs and
    /// this throws `CancellationError` at once; `work` already running finishes (it has no
    /// suspension point to stop at) and its result is returned.
    func runCancellable<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws -> T {
        try Task.checkCancellation()
        let ticket = _Ticket()
        let result: Result<T, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
                guard ticket.arm(onCancel: { continuation.resume(returning: .failure(CancellationError())) }) else {
                    return continuation.resume(returning: .failure(CancellationError()))
                }
                submit { [self] in
                    guard ticket.start() else { return }  // cancelled while queued: already answered
                    counters.withLock { $0.started += 1; $0.running += 1 }
                    let r = Result<T, any Error> { () throws(E) -> T in try work() }
                    counters.withLock { $0.running -= 1 }
                    continuation.resume(returning: r)
                }
            }
        } onCancel: {
            ticket.cancel()
        }
        return try result.get()
    }

    /// How many cancellable work items have started, and how many are running now (for tests that
    /// check that cancelled work stops).
    var activity: (started: Int, running: Int) {
        counters.withLock { ($0.started, $0.running) }
    }

    private let counters = LockedState((started: 0, running: 0))

    private func submit(_ item: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(item)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while head == queue.count { condition.wait() }
            let item = queue[head]
            head += 1
            if head == queue.count {  // drained: drop the consumed items
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            item()
        }
    }
}

/// One cancellable work item's state: waiting, started, or cancelled before it started (then its
/// caller has been answered and the item is skipped when a thread reaches it).
final class _Ticket: Sendable {
    private struct State {
        var started = false
        var cancelled = false
        var onCancel: (@Sendable () -> Void)?
    }
    private let state = LockedState(State())

    /// Registers what answers the caller on cancellation; false if the ticket was cancelled already
    /// (the caller answers itself, and nothing is submitted).
    func arm(onCancel: @escaping @Sendable () -> Void) -> Bool {
        state.withLock {
            if $0.cancelled { return false }
            $0.onCancel = onCancel
            return true
        }
    }

    /// Called by the thread that reaches the item: true if it may run (it was not cancelled).
    func start() -> Bool {
        state.withLock {
            if $0.cancelled { return false }
            $0.started = true
            $0.onCancel = nil
            return true
        }
    }

    /// Cancels the item unless it has started; answers its caller at once if it was waiting.
    func cancel() {
        let handler: (@Sendable () -> Void)? = state.withLock { s in
            guard !s.started, !s.cancelled else { return nil }
            s.cancelled = true
            defer { s.onCancel = nil }
            return s.onCancel
        }
        handler?()
    }
}
