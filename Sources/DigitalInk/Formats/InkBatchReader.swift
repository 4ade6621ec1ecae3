import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a JSON Lines file (one project-format JSON ink a line, see
/// ``InkDocument/init(jsonData:source:)``) lazily, one ``Entry`` per line.
///
/// Lines are read in chunks as iteration proceeds, so memory stays proportional to the longest
/// line, not to the file. A malformed line gives an entry holding its error (with the line number
/// and the field path), and the lines after it are read as usual:
///
/// ```swift
/// for entry in try InkBatchReader(contentsOf: url) {
///     switch entry.result {
///     case .success(let document): recognize(document)
///     case .failure(let error): print("line \(entry.line): \(error)")
///     }
/// }
/// ```
///
/// Every line gives exactly one entry, so that answers can be matched to lines one for one: a
/// blank line (only spaces, tabs or a carriage return) gives an entry with the error
/// ``DigitalInkError/malformedInput(source:line:field:reason:)`` and the reason "blank line",
/// unless ``skipsBlankLines`` is set (then blank lines are skipped but counted). A final line
/// break does not start another line. `\r\n` line ends are accepted. A reader made from a URL or from `Data` can be iterated more than once; one made
/// from a `FileHandle` reads the handle once, and a second iteration continues where the first
/// stopped.
///
/// - Complexity: each line is parsed in O(its length); the bytes of a line are scanned for its end
///   once, however many chunks it spans.
public struct InkBatchReader: Sequence, Sendable {
    /// The outcome of one line.
    public struct Entry: Sendable, Equatable {
        /// The 1-based line number in the input.
        public let line: Int
        /// The document read from the line, or why it could not be read.
        /// ``DigitalInkError/malformedInput(source:line:field:reason:)`` errors carry the same line.
        public let result: Result<InkDocument, DigitalInkError>
        /// The line's `"id"`: the document's, or, for a line whose ink was rejected, the string value
        /// of the `"id"` member of the JSON object on the line, when one can be found (so that an
        /// answer can still name it). It is found by a bounded scan of the line's top-level members
        /// that needs no valid JSON after the id: a line cut short, nested too deeply or longer
        /// than ``InkBatchReader/maxLineLength`` keeps its id when the id comes before the trouble.
        public let id: String?

        /// An entry for line `line` (1-based). `id` defaults to the document's.
        public init(line: Int, result: Result<InkDocument, DigitalInkError>, id: String? = nil) {
            self.line = line
            self.result = result
            if case .success(let document) = result { self.id = id ?? document.id } else { self.id = id }
        }

        /// The document, or nil when the line could not be read.
        public var document: InkDocument? {
            if case .success(let document) = result { return document }
            return nil
        }

        /// The error, or nil when the line was read.
        public var error: DigitalInkError? {
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    private enum Input: Sendable {
        case fileHandle(FileHandle)
        case file(URL)
        case data(Data)
    }

    private let input: Input
    /// Names the input in errors.
    public let source: String
    /// How many bytes are read at a time. Default 1 MiB.
    public var chunkSize: Int = 1 << 20
    /// Lines longer than this many bytes are not parsed: their entry holds an error, and reading
    /// goes on after them. Default 256 MiB.
    public var maxLineLength: Int = 256 << 20
    /// Whether blank lines are skipped (still counted in line numbers) instead of giving an entry
    /// with the error "blank line". Default false: one entry per line.
    public var skipsBlankLines: Bool = false

    /// Reads lines from an open file handle (a file, a pipe, standard input). The handle is not
    /// closed.
    public init(fileHandle: FileHandle, source: String = "<stdin>") {
        self.input = .fileHandle(fileHandle)
        self.source = source
    }

    /// Reads the lines of a file; each iteration opens it anew.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` with the reason
    ///   "file not found" (or "is a directory") and the path as source.
    public init(contentsOf url: URL) throws(DigitalInkError) {
        try InkFileAccess.checkReadable(url)
        self.input = .file(url)
        self.source = url.path
    }

    /// Reads the lines of JSON Lines text already in memory.
    public init(data: Data, source: String = "<input>") {
        self.input = .data(data)
        self.source = source
    }

    /// A reader of the process's standard input.
    public static var standardInput: InkBatchReader {
        InkBatchReader(fileHandle: FileHandle.standardInput, source: "<stdin>")
    }

    /// An iterator over the entries. For a URL it opens the file (a file that disappeared since
    /// ``init(contentsOf:)`` gives one error entry); for a file handle it reads on from the
    /// handle's current position.
    public func makeIterator() -> Iterator {
        switch input {
        case .fileHandle(let handle):
            return Iterator(chunks: ChunkSource(fd: handle.fileDescriptor, owned: false), reader: self)
        case .data(let data):
            return Iterator(chunks: ChunkSource(data: data), reader: self)
        case .file(let url):
            let fd = open(url.path, O_RDONLY)
            if fd < 0 {
                let reason = errno == ENOENT ? "file not found" : "cannot open file: \(String(cString: strerror(errno)))"
                return Iterator(failure: .malformedInput(source: source, line: nil, field: nil, reason: reason), reader: self)
            }
            return Iterator(chunks: ChunkSource(fd: fd, owned: true), reader: self)
        }
    }

    /// Produces the entries of the lines, in order.
    public struct Iterator: IteratorProtocol {
        private let chunks: ChunkSource?
        private let source: String
        private let chunkSize: Int
        private let maxLineLength: Int
        private let skipsBlankLines: Bool
        private var buffer: [UInt8] = []
        /// Where the current (unfinished) line starts in `buffer`.
        private var lineStart = 0
        /// Where to resume looking for the line end in `buffer`.
        private var scanFrom = 0
        private var lineNumber = 0
        private var atEndOfInput = false
        /// True while skipping the rest of an over-long line that was already reported.
        private var discarding = false
        private var pendingFailure: DigitalInkError?
        private var finished = false

        fileprivate init(chunks: ChunkSource, reader: InkBatchReader) {
            self.chunks = chunks
            self.source = reader.source
            self.chunkSize = Swift.max(1, reader.chunkSize)
            self.maxLineLength = Swift.max(1, reader.maxLineLength)
            self.skipsBlankLines = reader.skipsBlankLines
        }

        fileprivate init(failure: DigitalInkError, reader: InkBatchReader) {
            self.chunks = nil
            self.source = reader.source
            self.chunkSize = 1
            self.maxLineLength = 1
            self.skipsBlankLines = reader.skipsBlankLines
            self.pendingFailure = failure
        }

        /// The entry of the next line (the next non-blank one with ``skipsBlankLines``), or nil at
        /// the end of the input. Reads more input
        /// only when the buffered bytes hold no complete line.
        public mutating func next() -> Entry? {
            advance({ $0.parseLine($1) }, { $0 })
        }

        /// The next line read but not parsed (``PendingLine``), or nil at the end of the input. Lines
        /// that fail before parsing (too long, a read error) come as ready entries.
        public mutating func nextPending() -> PendingLine? {
            advance({ me, range in
                PendingLine(number: me.lineNumber, bytes: Array(me.buffer[range]), source: me.source, skipsBlankLines: me.skipsBlankLines)
            }, { PendingLine(ready: $0) })
        }

        /// The reading loop: `make` turns the byte range of a complete line (of `buffer`, numbered
        /// `lineNumber`) into a result, nil to skip it; `wrap` turns an entry made here (an error)
        /// into one.
        private mutating func advance<T>(_ make: (Iterator, Range<Int>) -> T?, _ wrap: (Entry) -> T) -> T? {
            if let failure = pendingFailure {
                pendingFailure = nil
                finished = true
                return wrap(Entry(line: lineNumber + 1, result: .failure(failure)))
            }
            while !finished {
                if let newline = findNewline() {
                    let range = lineStart..<newline
                    lineStart = newline + 1
                    scanFrom = lineStart
                    if discarding {
                        discarding = false
                        continue
                    }
                    lineNumber += 1
                    if range.count > maxLineLength { return wrap(overlongLineEntry(range)) }
                    if let made = make(self, range) { return made }
                    continue
                }
                scanFrom = buffer.count
                if atEndOfInput {
                    finished = true
                    if lineStart < buffer.count, !discarding {
                        lineNumber += 1
                        let range = lineStart..<buffer.count
                        lineStart = buffer.count
                        if range.count > maxLineLength { return wrap(overlongLineEntry(range)) }
                        return make(self, range)
                    }
                    return nil
                }
                if buffer.count - lineStart > maxLineLength, !discarding {
                    lineNumber += 1
                    discarding = true
                    let entry = overlongLineEntry(lineStart..<buffer.count)
                    buffer.removeAll(keepingCapacity: false)
                    lineStart = 0
                    scanFrom = 0
                    return wrap(entry)
                }
                if discarding {
                    buffer.removeAll(keepingCapacity: true)
                    lineStart = 0
                    scanFrom = 0
                } else if lineStart > 0 {
                    buffer.removeSubrange(0..<lineStart)
                    scanFrom -= lineStart
                    lineStart = 0
                }
                do {
                    if try !chunks!.append(upTo: chunkSize, to: &buffer) { atEndOfInput = true }
                } catch {
                    finished = true
                    return wrap(Entry(line: lineNumber + 1, result: .failure(.malformedInput(
                        source: source, line: lineNumber + 1, field: nil, reason: "read error: \(error.reason)"))))
                }
            }
            return nil
        }

        /// The entry of an over-long line, of which `range` of `buffer` holds the start.
        private func overlongLineEntry(_ range: Range<Int>) -> Entry {
            let id = buffer.withUnsafeBufferPointer { b in
                InkBatchReader.topLevelID(in: UnsafeBufferPointer(rebasing: b[range]))
            }
            return Entry(line: lineNumber, result: .failure(.malformedInput(
                source: source, line: lineNumber, field: nil,
                reason: "line is longer than \(maxLineLength) bytes; skipped")), id: id)
        }

        /// The index of the next `\n` at or after `scanFrom`, or nil. Uses `memchr`.
        private func findNewline() -> Int? {
            guard scanFrom < buffer.count else { return nil }
            return buffer.withUnsafeBufferPointer { b -> Int? in
                guard let base = b.baseAddress,
                      let hit = memchr(base + scanFrom, 0x0A, b.count - scanFrom) else { return nil }
                return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            }
        }

        /// The entry of one line, or nil when the line is blank and blank lines are skipped.
        private func parseLine(_ range: Range<Int>) -> Entry? {
            buffer.withUnsafeBufferPointer { b in
                InkBatchReader.entry(of: UnsafeBufferPointer(rebasing: b[range]), line: lineNumber, source: source,
                                     skipsBlankLines: skipsBlankLines)
            }
        }
    }

    /// A line of the input read but not parsed yet, so that the parsing (most of the reading's work)
    /// can run where the ink is recognized, on any thread: ``entry()`` gives what the iterator would
    /// have given for it.
    public struct PendingLine: Sendable {
        /// The line's number in the input, from 1.
        public let number: Int
        private let bytes: [UInt8]
        private let ready: Entry?
        private let source: String
        private let skipsBlankLines: Bool

        init(number: Int, bytes: [UInt8], source: String, skipsBlankLines: Bool) {
            self.number = number
            self.bytes = bytes
            self.ready = nil
            self.source = source
            self.skipsBlankLines = skipsBlankLines
        }

        init(ready: Entry) {
            number = ready.line
            bytes = []
            self.ready = ready
            source = ""
            skipsBlankLines = false
        }

        /// The line's entry: its ink or its error; nil for a blank line when blank lines are skipped.
        public func entry() -> Entry? {
            if let ready { return ready }
            return bytes.withUnsafeBufferPointer { b in
                InkBatchReader.entry(of: b, line: number, source: source, skipsBlankLines: skipsBlankLines)
            }
        }
    }

    /// The entry of one line's bytes (without its `\n`), or nil when it is blank and blank lines are
    /// skipped.
    static func entry(of bytes: UnsafeBufferPointer<UInt8>, line: Int, source: String, skipsBlankLines: Bool) -> Entry? {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        let body = UnsafeBufferPointer(rebasing: bytes[0..<end])
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            if skipsBlankLines { return nil }
            return Entry(line: line, result: .failure(.malformedInput(source: source, line: line, field: nil, reason: "blank line")))
        }
        let result = Result { () throws(DigitalInkError) -> InkDocument in
            try InkJSONReader.document(bytes: body, source: source, firstLine: line)
        }
        var id: String? = nil
        if case .failure = result { id = InkBatchReader.topLevelID(in: body) }  // salvage the id of a rejected ink
        return Entry(line: line, result: result, id: id)
    }

    /// The string value of the `"id"` member of the JSON object that `bytes` start with (after
    /// whitespace), or nil when there is none or it is not a complete string. Members are read in
    /// order and the last complete `"id"` before the end of the object or of the bytes wins; the
    /// values of other members are skipped by counting brackets, without recursion and without
    /// checking their syntax, so a line cut short or nested without bound still gives the id that
    /// precedes the trouble. O(n), no allocation beyond the strings read.
    static func topLevelID(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var s = JSONScanner(bytes: bytes, source: "")
        guard s.peek() == UInt8(ascii: "{") else { return nil }
        s.seek(to: s.index + 1)
        var found: String?
        while let c = s.peek(), c != UInt8(ascii: "}") {
            if c == UInt8(ascii: ",") {
                s.seek(to: s.index + 1)
                continue
            }
            guard c == UInt8(ascii: "\""), let key = try? s.readString(), s.peek() == UInt8(ascii: ":") else { break }
            s.seek(to: s.index + 1)
            guard let v = s.peek() else { break }
            if v == UInt8(ascii: "\"") {
                guard let value = try? s.readString() else { break }
                if key == "id" { found = value }
            } else {
                if key == "id" { found = nil }
                guard let end = endOfValue(bytes, from: s.index) else { break }
                s.seek(to: end)
            }
        }
        return found
    }

    /// Where the value starting at `start` ends: after a string or a closing bracket that brings
    /// the nesting back to 0, or at the `,`, `}` or `]` that ends a scalar. Nil when the bytes end
    /// first. Brackets are counted, not matched. O(n).
    private static func endOfValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        var depth = 0
        let n = bytes.count
        while i < n {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < n, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                guard i < n else { return nil }
                i += 1
                if depth == 0 { return i }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return i }
                depth -= 1
                i += 1
                if depth == 0 { return i }
            case UInt8(ascii: ","):
                if depth == 0 { return i }
                i += 1
            default:
                i += 1
            }
        }
        return nil
    }

    /// Where the bytes come from: a file descriptor read with `read(2)` (which returns what is
    /// available, so pipes stream), or data in memory.
    fileprivate final class ChunkSource {
        struct ReadError: Error {
            let reason: String
        }

        private let fd: Int32
        private let owned: Bool
        private let data: Data?
        private var offset = 0
        private var scratch: [UInt8] = []

        init(fd: Int32, owned: Bool) {
            self.fd = fd
            self.owned = owned
            self.data = nil
        }

        init(data: Data) {
            self.fd = -1
            self.owned = false
            self.data = data
        }

        deinit {
            if owned { close(fd) }
        }

        /// Appends up to `count` bytes to `buffer`; returns false at the end of the input.
        func append(upTo count: Int, to buffer: inout [UInt8]) throws(ReadError) -> Bool {
            if let data {
                guard offset < data.count else { return false }
                let end = Swift.min(data.count, offset + count)
                data.withUnsafeBytes { raw in
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                }
                offset = end
                return true
            }
            if scratch.count != count { scratch = [UInt8](repeating: 0, count: count) }
            while true {
                let n = scratch.withUnsafeMutableBytes { b in read(fd, b.baseAddress!, count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw ReadError(reason: String(cString: strerror(errno))) }
                scratch.withUnsafeBytes { b in buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[0..<n])) }
                return n > 0
            }
        }
    }
}
