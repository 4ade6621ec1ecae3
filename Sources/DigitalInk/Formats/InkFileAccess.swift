import Foundation

/// Reading whole ink files, with file-system problems reported as typed errors.
enum InkFileAccess {
    /// Throws unless `url` names an existing regular file (or something readable that is not a
    /// directory).
    static func checkReadable(_ url: URL) throws(DigitalInkError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .malformedInput(source: url.path, line: nil, field: nil, reason: "file not found")
        }
        if isDirectory.boolValue {
            throw .malformedInput(source: url.path, line: nil, field: nil, reason: "is a directory, not a file")
        }
    }

    /// The contents of a file. O(file size).
    static func contents(of url: URL) throws(DigitalInkError) -> Data {
        try checkReadable(url)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .malformedInput(source: url.path, line: nil, field: nil, reason: "cannot read file: \(error.localizedDescription)")
        }
    }
}
