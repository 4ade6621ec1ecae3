import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checking blobs that are already in the store before an install reuses them (a network shared
/// with installed models, for example), and repairing installed models after a damaged blob has
/// been downloaded again.
extension ModelStore {
    /// What the store holds for one manifest file.
    enum BlobCheck: Sendable, Hashable {
        /// No blob: the file must be transferred.
        case missing
        /// A blob with the file's size and SHA-256.
        case valid
        /// A blob whose contents have changed since it was verified (disk damage, outside
        /// tampering): it must be transferred again.
        case damaged(actual: String)
    }

    /// Reads the blob of `file`, if any, and compares its size and SHA-256 with the manifest's:
    /// presence alone is never trusted.
    func checkBlob(_ file: ModelManifest.File) -> BlobCheck {
        let url = blobURL(file.sha256)
        guard let size = fileSize(url) else { return .missing }
        guard size == file.size else { return .damaged(actual: "\(size) bytes") }
        guard let digest = try? FileDigest(of: url) else { return .damaged(actual: "unreadable") }
        guard digest.matches(file) else { return .damaged(actual: digest.summary) }
        return .valid
    }

    /// Points every installed copy of `file` (in the version directories of the install records
    /// that list its digest) at the blob, which has just been transferred again: installed models
    /// that shared the damaged contents get the verified ones. Each copy is replaced atomically
    /// (a link or copy under a temporary name, then a rename); a copy that cannot be replaced is
    /// left as it was.
    func relinkInstalledCopies(of file: ModelManifest.File) {
        let blob = blobURL(file.sha256)
        for record in allRecords() where record.location == nil {  // never write into a repository
            let base = installURL(record)
            for entry in record.files where entry.sha256 == file.sha256 {
                let destination = fileURL(entry.path, under: base)
                guard FileManager.default.fileExists(atPath: destination.deletingLastPathComponent().path) else { continue }
                let temporary = destination.deletingLastPathComponent()
                    .appendingPathComponent(".\(destination.lastPathComponent).repair.incomplete")
                removeItem(temporary)
                do {
                    do {
                        try FileManager.default.linkItem(at: blob, to: temporary)
                    } catch {
                        try FileManager.default.copyItem(at: blob, to: temporary)
                    }
                } catch {
                    removeItem(temporary)
                    continue
                }
                if rename(temporary.path, destination.path) != 0 { removeItem(temporary) }
            }
        }
    }
}
