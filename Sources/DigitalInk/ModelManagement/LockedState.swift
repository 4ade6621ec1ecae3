import Foundation

/// A value guarded by a lock, for the few places where Sendable classes keep mutable state.
///
/// `Synchronization.Mutex` needs macOS 15, and the package supports macOS 13, so this wraps
/// `NSLock`. Never call back into foreign code while holding the lock.
final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ initialState: State) {
        state = initialState
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
