import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a model store, held while a model is installed or deleted, so that several
/// processes (or several ``ModelManager``s of one process) sharing a storage directory wait for each
/// other instead of failing: one's garbage collection never removes a blob another is installing,
/// and two never write the same `*.incomplete` file.
///
/// `flock(2)` on `<root>/.lock`: the lock is released when the holder closes the file or exits,
/// also when it crashes. Waiting is polling with a short sleep, so a waiting task never blocks a
/// thread and can be cancelled.
final class StoreLock: Sendable {
    private let fd: Int32
    let url: URL

    private init(fd: Int32, url: URL) {
        self.fd = fd
        self.url = url
    }

    deinit { close(fd) }  // releases the lock

    /// Takes the lock of the store at `root`, waiting while another holder has it.
    /// - Throws: ``DigitalInkError/storageFailed(path:reason:)`` when the lock file cannot be
    ///   opened, ``DigitalInkError/cancelled`` when the task is cancelled while waiting.
    static func acquire(root: URL) async throws(DigitalInkError) -> StoreLock {
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        } catch {
            throw .storageFailed(path: root.path, reason: "\(error.localizedDescription)")
        }
        let url = root.appendingPathComponent(".lock")
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .storageFailed(path: url.path, reason: "cannot open the store's lock file: \(String(cString: strerror(errno)))")
        }
        var wait: UInt64 = 5_000_000  // 5 ms, doubling to 100 ms
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .storageFailed(path: url.path, reason: "cannot lock the store: \(reason)")
            }
            do { try await Task.sleep(nanoseconds: wait) } catch {
                close(fd)
                throw .cancelled
            }
            wait = min(wait * 2, 100_000_000)
        }
        return StoreLock(fd: fd, url: url)
    }
}
