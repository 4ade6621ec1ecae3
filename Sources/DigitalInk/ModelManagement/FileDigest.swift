import Crypto
import Foundation

/// Size and SHA-256 of a file, read in chunks so large files never sit in memory whole.
struct FileDigest: Sendable, Hashable {
    /// Bytes in the file.
    var size: Int64
    /// Lower-case hexadecimal SHA-256 digest.
    var sha256: String

    /// Chunk size for reading and copying files.
    static let chunkSize = 1 << 20

    /// Reads `url` and computes its size and digest.
    init(of url: URL) throws(DigitalInkError) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .modelCorrupt(file: url.path, reason: "cannot open: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Self.chunkSize)
            } catch {
                throw .modelCorrupt(file: url.path, reason: "cannot read: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        self.size = size
        self.sha256 = Self.hex(hasher.finalize())
    }

    /// Size and digest of bytes in memory.
    init(of data: Data) {
        size = Int64(data.count)
        sha256 = Self.hex(SHA256.hash(data: data))
    }

    /// "N bytes with sha256 X", as errors and checks name a file's contents.
    var summary: String { "\(size) bytes with sha256 \(sha256)" }

    /// True when these are the contents the manifest lists for `file` (size and SHA-256).
    func matches(_ file: ModelManifest.File) -> Bool {
        size == file.size && sha256 == file.sha256
    }

    /// Throws ``DigitalInkError/checksumMismatch(file:expected:actual:)`` unless these are the
    /// contents the manifest lists for `file`.
    func verify(against file: ModelManifest.File) throws(DigitalInkError) {
        guard matches(file) else {
            throw .checksumMismatch(file: file.path, expected: "\(file.size) bytes with sha256 \(file.sha256)", actual: summary)
        }
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let s = String(byte, radix: 16)
            return byte < 16 ? "0" + s : s
        }.joined()
    }
}
