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
    /// suspended (not blocked) until then.
    func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                continuation.resume(returning: Result { () throws(E) -> T in try work() })
            }
        }
        return try result.get()
    }

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
