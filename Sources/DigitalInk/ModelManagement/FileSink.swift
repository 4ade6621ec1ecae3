import Foundation

/// Where a transfer's bytes go: a partial file, written only on the delegate queue.
final class FileSink: @unchecked Sendable {
    private let url: URL
    private let limit: Int64
    private let onBytes: @Sendable (Int64) -> Void
    private var handle: FileHandle?
    private var written: Int64 = 0

    init(url: URL, limit: Int64, onBytes: @escaping @Sendable (Int64) -> Void) {
        self.url = url
        self.limit = limit
        self.onBytes = onBytes
    }

    /// Opens the partial file, keeping its first `keeping` bytes and dropping the rest.
    func open(keeping: Int64) throws(DigitalInkError) {
        close()
        do {
            if !FileManager.default.fileExists(atPath: url.path) {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw DigitalInkError.storageFailed(path: url.path, reason: "cannot create the file")
                }
            }
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(keeping))
            try handle.seekToEnd()
            self.handle = handle
            written = keeping
        } catch {
            throw ModelStore.storageError(url, error)
        }
        onBytes(written)
    }

    func write(_ data: Data, file: ModelManifest.File) throws(DigitalInkError) {
        guard let handle else {
            throw .storageFailed(path: url.path, reason: "body arrived before the file was opened")
        }
        guard written + Int64(data.count) <= limit else {
            throw .checksumMismatch(
                file: file.path, expected: "\(limit) bytes",
                actual: "more than \(limit) bytes")
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw ModelStore.storageError(url, error)
        }
        written += Int64(data.count)
        onBytes(written)
    }

    /// Deletes the partial file: its bytes cannot be trusted for resuming.
    func discard() {
        close()
        try? FileManager.default.removeItem(at: url)
    }

    func close() {
        try? handle?.close()
        handle = nil
    }
}
