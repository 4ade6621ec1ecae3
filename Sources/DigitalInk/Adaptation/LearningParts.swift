import Foundation

/// The independent parts of one ``WriterProfile/learn(from:threads:)``: the profile's own change, and each run of its
/// check (``HeldOutCheck``). Each part's result depends on nothing that another part writes, so a profile learns the
/// same bytes on any number of threads; only the wall time changes. Internal.
enum _LearningParts {
    /// `part(i, pool)` for every i in `0..<count`, in order of i: on the calling thread with `pool` where `threads` is
    /// 1 (or there is one part); else on up to `threads` threads (`DispatchQueue.concurrentPerform`), each taking the
    /// next part not yet taken, with a ``FloatBufferPool`` of its own. The first error in order of i is thrown, after
    /// every part has ended.
    static func run<T: Sendable>(_ count: Int, threads: Int, pool: FloatBufferPool,
                                 _ part: @Sendable (Int, FloatBufferPool) throws(DigitalInkError) -> T) throws(DigitalInkError) -> [T] {
        let workers = Swift.max(1, Swift.min(threads, count))
        guard workers > 1 else {
            var out: [T] = []
            for i in 0..<count { out.append(try part(i, pool)) }
            return out
        }
        // Longest first is the caller's order (the profile's own change, then the check's runs): a worker that is free
        // takes the next part, so two threads run the change beside the five runs.
        let next = LockedState(0)
        let results = LockedState([Result<T, DigitalInkError>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let own = FloatBufferPool()
            while true {
                let i = next.withLock { (n: inout Int) -> Int in
                    defer { n += 1 }
                    return n
                }
                guard i < count else { return }
                let result: Result<T, DigitalInkError>
                do throws(DigitalInkError) { result = .success(try part(i, own)) } catch { result = .failure(error) }
                results.withLock { $0[i] = result }
            }
        }
        var out: [T] = []
        for result in results.withLock({ $0 }) {
            guard let result else { preconditionFailure("every part ran") }
            out.append(try result.get())
        }
        return out
    }
}
