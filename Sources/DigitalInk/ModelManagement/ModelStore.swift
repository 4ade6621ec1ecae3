import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk layout of a model storage directory.
///
/// ```
/// <root>/blobs/<sha256>              verified file contents, named by digest, shared by models
///                                    (checked again before an install reuses them)
/// <root>/blobs/<sha256>.incomplete   a transfer in progress or interrupted (resumable)
/// <root>/models/<id>/<version>-<n>/  one installed version: the repository layout, hard links to blobs
/// <root>/records/<id>.json           the install record, written last (see InstallRecord)
/// ```
///
/// Every version of a model gets a new directory, so an update never touches files a running
/// recognizer may be reading; the record is switched atomically and the old directory removed
/// afterwards. Blobs are immutable once renamed into place.
struct ModelStore: Sendable {
    let root: URL

    var blobsDirectory: URL { root.appendingPathComponent("blobs", isDirectory: true) }
    var modelsDirectory: URL { root.appendingPathComponent("models", isDirectory: true) }
    var recordsDirectory: URL { root.appendingPathComponent("records", isDirectory: true) }

    private var fileManager: FileManager { FileManager.default }

    // MARK: Directories

    /// Creates the store's directories if they are missing.
    func prepare() throws(DigitalInkError) {
        for directory in [blobsDirectory, modelsDirectory, recordsDirectory] {
            try createDirectory(directory)
        }
    }

    func createDirectory(_ url: URL) throws(DigitalInkError) {
        do {
            try fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw storageError(url, error)
        }
    }

    /// Free bytes on the volume of the store, when the system reports it.
    func availableCapacity() -> Int64? {
        var url = root
        // Ask about the nearest existing ancestor.
        while !fileManager.fileExists(atPath: url.path), url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
        }
        guard let attributes = try? fileManager.attributesOfFileSystem(forPath: url.path),
            let free = attributes[.systemFreeSize] as? NSNumber
        else { return nil }
        return free.int64Value
    }

    // MARK: Blobs

    func blobURL(_ sha256: String) -> URL { blobsDirectory.appendingPathComponent(sha256) }
    func partialBlobURL(_ sha256: String) -> URL { blobsDirectory.appendingPathComponent(sha256 + ".incomplete") }

    /// Bytes already transferred into the partial blob of `file`.
    func partialSize(_ file: ModelManifest.File) -> Int64 {
        fileSize(partialBlobURL(file.sha256)) ?? 0
    }

    func fileSize(_ url: URL) -> Int64? { Self.fileSizeOfItem(url) }

    /// The size of a regular file, or nil when there is none at `url`.
    static func fileSizeOfItem(_ url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            (attributes[.type] as? FileAttributeType) == .typeRegular,
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }

    /// Moves a verified partial blob into place. Atomic: the blob appears whole or not at all.
    func commitBlob(_ file: ModelManifest.File) throws(DigitalInkError) {
        let partial = partialBlobURL(file.sha256)
        let target = blobURL(file.sha256)
        if rename(partial.path, target.path) != 0 {
            let reason = String(cString: strerror(errno))
            throw .storageFailed(path: target.path, reason: reason)
        }
    }

    func removeItem(_ url: URL) {
        try? fileManager.removeItem(at: url)
    }

    // MARK: Install directories

    func modelRoot(_ identifier: DigitalInkRecognitionModelIdentifier) -> URL {
        modelsDirectory.appendingPathComponent(identifier.languageTag, isDirectory: true)
    }

    /// Where the record's files are: its version directory in the store, or the local repository
    /// it is read from in place.
    func installURL(_ record: InstallRecord) -> URL {
        if let location = record.location { return URL(fileURLWithPath: location, isDirectory: true) }
        return modelRoot(record.identifier).appendingPathComponent(record.directory, isDirectory: true)
    }

    /// The directory holding the record's config.json.
    func modelDirectory(_ record: InstallRecord) -> URL? {
        guard let config = record.configPath else { return nil }
        return fileURL(config, under: installURL(record)).deletingLastPathComponent()
    }

    func fileURL(_ path: String, under base: URL) -> URL {
        var url = base
        for component in path.split(separator: "/") { url.appendPathComponent(String(component)) }
        return url
    }

    /// A fresh directory name for a new installed version.
    func newDirectoryName(version: String) -> String {
        let safe = String(version.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "_" })
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(safe.prefix(40))-\(suffix)"
    }

    /// Builds the directory of one installed version from verified blobs: hard links where the
    /// file system allows, copies otherwise. The directory is assembled under a temporary name
    /// and renamed into place, so it never exists half built.
    func buildInstallDirectory(
        identifier: DigitalInkRecognitionModelIdentifier, name: String, files: [ModelManifest.File]
    ) throws(DigitalInkError) {
        let parent = modelRoot(identifier)
        try createDirectory(parent)
        let staging = parent.appendingPathComponent(".\(name).incomplete", isDirectory: true)
        removeItem(staging)
        let target = parent.appendingPathComponent(name, isDirectory: true)
        do throws(DigitalInkError) {
            for file in files {
                let destination = fileURL(file.path, under: staging)
                try createDirectory(destination.deletingLastPathComponent())
                let blob = blobURL(file.sha256)
                do {
                    try fileManager.linkItem(at: blob, to: destination)
                } catch {
                    do {
                        try fileManager.copyItem(at: blob, to: destination)
                    } catch {
                        throw storageError(destination, error)
                    }
                }
            }
            if rename(staging.path, target.path) != 0 {
                throw DigitalInkError.storageFailed(path: target.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            removeItem(staging)
            throw error
        }
    }

    /// Removes every version directory of `identifier` except `keeping` (old versions, and
    /// leftovers of interrupted installs).
    func removeOtherInstallDirectories(_ identifier: DigitalInkRecognitionModelIdentifier, keeping: String?) {
        let parent = modelRoot(identifier)
        guard let names = try? fileManager.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name != keeping {
            removeItem(parent.appendingPathComponent(name))
        }
    }

    /// True when every file of the record is present with its size.
    func isComplete(_ record: InstallRecord) -> Bool {
        let base = installURL(record)
        return record.configPath != nil
            && record.files.allSatisfy { fileSize(fileURL($0.path, under: base)) == $0.size }
    }

    // MARK: Records

    func recordURL(_ identifier: DigitalInkRecognitionModelIdentifier) -> URL {
        recordsDirectory.appendingPathComponent(identifier.languageTag + ".json")
    }

    /// The record of `identifier`, or nil when there is none or it cannot be read.
    func record(_ identifier: DigitalInkRecognitionModelIdentifier) -> InstallRecord? {
        guard let data = try? Data(contentsOf: recordURL(identifier)) else { return nil }
        return decodeRecord(data)
    }

    func allRecords() -> [InstallRecord] {
        guard let names = try? fileManager.contentsOfDirectory(atPath: recordsDirectory.path) else { return [] }
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".json"),
                let data = try? Data(contentsOf: recordsDirectory.appendingPathComponent(name))
            else { return nil }
            return decodeRecord(data)
        }
    }

    private func decodeRecord(_ data: Data) -> InstallRecord? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let record = try? decoder.decode(InstallRecord.self, from: data),
            record.formatVersion == InstallRecord.currentFormatVersion
        else { return nil }
        return record
    }

    /// Writes the record atomically (temporary file, then rename): the commit point of an install.
    func write(_ record: InstallRecord) throws(DigitalInkError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let url = recordURL(record.identifier)
        do {
            try encoder.encode(record).write(to: url, options: .atomic)
        } catch {
            throw storageError(url, error)
        }
    }

    func removeRecord(_ identifier: DigitalInkRecognitionModelIdentifier) throws(DigitalInkError) {
        let url = recordURL(identifier)
        guard fileManager.fileExists(atPath: url.path) else { return }
        do {
            try fileManager.removeItem(at: url)
        } catch {
            throw storageError(url, error)
        }
    }

    // MARK: Garbage collection

    /// Removes blobs no record lists and no running download has pinned; with
    /// `includingPartials`, also unpinned partial transfers.
    func collectGarbage(pinned: Set<String>, includingPartials: Bool) {
        let referenced = Set(allRecords().flatMap { $0.files.map(\.sha256) }).union(pinned)
        guard let names = try? fileManager.contentsOfDirectory(atPath: blobsDirectory.path) else { return }
        for name in names {
            let isPartial = name.hasSuffix(".incomplete")
            let digest = isPartial ? String(name.dropLast(".incomplete".count)) : name
            guard !referenced.contains(digest) else { continue }
            if isPartial && !includingPartials { continue }
            removeItem(blobsDirectory.appendingPathComponent(name))
        }
    }

    // MARK: Errors

    func storageError(_ url: URL, _ error: any Error) -> DigitalInkError { Self.storageError(url, error) }

    /// `error` as a ``DigitalInkError``: storage errors name the path and a full disk plainly.
    static func storageError(_ url: URL, _ error: any Error) -> DigitalInkError {
        if let error = error as? DigitalInkError { return error }
        return .storageFailed(path: url.path, reason: Self.reason(error))
    }

    /// A readable reason, naming a full disk plainly.
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
            $0.domain == NSPOSIXErrorDomain ? $0.code : nil
        } ?? (ns.domain == NSPOSIXErrorDomain ? ns.code : nil)
        if posix == Int(ENOSPC) || (ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError) {
            return "the disk is full"
        }
        return ns.localizedDescription
    }
}
