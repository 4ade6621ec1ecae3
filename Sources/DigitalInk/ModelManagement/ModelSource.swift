import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a repository's manifest and transfers its files, from a directory or over HTTP(S).
struct ModelSource: Sendable {
    let repository: ModelRepository
    let session: URLSession

    /// The largest manifest accepted, against a misconfigured server sending something else.
    static let maximumManifestSize = 32 << 20

    /// Reads and validates the repository's manifest.
    func fetchManifest(conditions: ModelDownloadConditions) async throws(DigitalInkError) -> ModelManifest {
        let url = repository.manifestURL
        if repository.isLocal {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw .downloadFailed(url: url.path, status: nil, reason: "the repository has no \(ModelManifest.fileName)")
            }
            return try ModelManifest(contentsOf: url)
        }
        let buffer = LockedState(Data())
        try await HTTPTransfer.get(
            request(url, conditions: conditions), session: session, idleTimeout: conditions.timeoutInterval,
            onResponse: { response throws(DigitalInkError) in
                guard response.statusCode == 200 else {
                    throw Self.statusError(url, response.statusCode)
                }
            },
            onData: { data throws(DigitalInkError) in
                try buffer.withLock { (buffer: inout Data) throws(DigitalInkError) in
                    buffer.append(data)
                    guard buffer.count <= Self.maximumManifestSize else {
                        throw .manifestMalformed(source: url.absoluteString, reason: "larger than \(Self.maximumManifestSize) bytes")
                    }
                }
            })
        return try ModelManifest(data: buffer.withLock { $0 }, source: url.absoluteString)
    }

    /// Transfers `file` into `partial`. Over HTTP, bytes already in `partial` are kept and only the
    /// rest is requested (`Range`); a server that answers with the whole file restarts it
    /// cleanly. A local file is always copied whole. `onBytes` receives the bytes in `partial`
    /// after each chunk.
    ///
    /// Returns when the transfer ends normally; the caller checks size and digest.
    func fetch(
        _ file: ModelManifest.File, to partial: URL, conditions: ModelDownloadConditions,
        onBytes: @escaping @Sendable (Int64) -> Void
    ) async throws(DigitalInkError) {
        let url = repository.url(forPath: file.path)
        if repository.isLocal {
            try await copy(file, from: url, to: partial, onBytes: onBytes)
            return
        }
        var existing = ModelStore.fileSizeOfItem(partial) ?? 0
        if existing > file.size {
            try? FileManager.default.removeItem(at: partial)
            existing = 0
        }
        if existing == file.size, existing > 0 {
            onBytes(existing)  // all bytes are here from an earlier attempt; verification decides
            return
        }
        var request = request(url, conditions: conditions)
        if existing > 0 {
            request.setValue("bytes=\(existing)-", forHTTPHeaderField: "Range")
        }
        let sink = FileSink(url: partial, limit: file.size, onBytes: onBytes)
        defer { sink.close() }
        let resumeFrom = existing
        try await HTTPTransfer.get(
            request, session: session, idleTimeout: conditions.timeoutInterval,
            onResponse: { response throws(DigitalInkError) in
                switch response.statusCode {
                case 206 where resumeFrom > 0:
                    let range = response.value(forHTTPHeaderField: "Content-Range") ?? ""
                    guard Self.rangeStart(range) == resumeFrom else {
                        sink.discard()
                        throw .downloadFailed(
                            url: url.absoluteString, status: 206,
                            reason: "the server resumed at the wrong offset (Content-Range \"\(range)\")")
                    }
                    try sink.open(keeping: resumeFrom)
                case 200:
                    try sink.open(keeping: 0)  // no Range support: start over
                case 416 where resumeFrom > 0:
                    sink.discard()
                    throw Self.statusError(url, 416)
                default:
                    throw Self.statusError(url, response.statusCode)
                }
            },
            onData: { data throws(DigitalInkError) in
                try sink.write(data, file: file)
            })
    }

    /// Copies a local file in chunks, with progress and cancellation.
    private func copy(
        _ file: ModelManifest.File, from source: URL, to partial: URL, onBytes: @escaping @Sendable (Int64) -> Void
    ) async throws(DigitalInkError) {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            throw .downloadFailed(url: source.path, status: nil, reason: "cannot read the file: \(error.localizedDescription)")
        }
        defer { try? input.close() }
        let sink = FileSink(url: partial, limit: file.size, onBytes: onBytes)
        defer { sink.close() }
        try sink.open(keeping: 0)
        while true {
            if Task.isCancelled { throw .cancelled }
            let chunk: Data?
            do {
                chunk = try input.read(upToCount: FileDigest.chunkSize)
            } catch {
                throw .downloadFailed(url: source.path, status: nil, reason: "cannot read the file: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return }
            try sink.write(chunk, file: file)
            await Task.yield()
        }
    }

    private func request(_ url: URL, conditions: ModelDownloadConditions) -> URLRequest {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: max(conditions.timeoutInterval, 1))
        request.httpMethod = "GET"
        request.allowsCellularAccess = conditions.allowsCellularAccess
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        request.setValue("DigitalInk/\(DigitalInkLibrary.version)", forHTTPHeaderField: "User-Agent")
        return request
    }

    static func statusError(_ url: URL, _ status: Int) -> DigitalInkError {
        .downloadFailed(
            url: url.absoluteString, status: status,
            reason: HTTPURLResponse.localizedString(forStatusCode: status))
    }

    /// The first byte of a `Content-Range: bytes <first>-<last>/<total>` value.
    static func rangeStart(_ value: String) -> Int64? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash].trimmingCharacters(in: .whitespaces))
    }
}
