import Foundation

/// Every error the DigitalInk module throws. Each case carries what went wrong and where.
///
/// ``description`` says it in one line, which is also the error's `localizedDescription` (through
/// `LocalizedError`'s ``errorDescription``), so an app can show it as it is.
public enum DigitalInkError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong with an ink or its writing area.
    public enum InkIssue: Sendable, Equatable {
        case nonFiniteCoordinate(stroke: Int, point: Int)
        case decreasingTimestamp(stroke: Int, point: Int)
        case tooManyPoints(count: Int, limit: Int)
        case invalidWritingArea(width: Float, height: Float)
        /// The pen's path is too long for the ink's size: it would resample to `frames` frames,
        /// more than `limit` (16,384 frames, or 64 frames per point of the ink when that is fewer). Often a writing area far smaller
        /// than the ink, or points far apart.
        case tooLong(frames: Double, limit: Int)
        /// A page has more lines than the page recognizer reads (`limit`).
        case tooManyLines(limit: Int)
    }

    /// The ink is not valid input.
    case invalidInk(InkIssue)
    /// Input text (JSON, JSON Lines, InkML, arrays) could not be read. `line` is 1-based when known;
    /// `field` is a dotted path such as `strokes[2].points[5].x` when known.
    case malformedInput(source: String, line: Int?, field: String?, reason: String)
    /// No model with this identifier exists in the repository or the registry.
    case modelNotFound(identifier: String)
    /// The model exists but is not installed in the model store.
    case modelNotDownloaded(identifier: String)
    /// A model file is missing, truncated or inconsistent.
    case modelCorrupt(file: String, reason: String)
    /// A tensor in a weights file does not have the shape the model's config requires.
    case tensorShapeMismatch(tensor: String, expected: [Int], actual: [Int])
    /// A repository manifest could not be read or is inconsistent.
    case manifestMalformed(source: String, reason: String)
    /// A transfer failed: connection error, or a non-success HTTP status (then `status` is set).
    case downloadFailed(url: String, status: Int?, reason: String)
    /// A downloaded file has the wrong size or SHA-256 digest.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// The disk is full or a file could not be written.
    case storageFailed(path: String, reason: String)
    /// A recognizer option or argument is out of range (`name` is the option's property name).
    case invalidOption(name: String, reason: String)
    /// The operation was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .invalidInk(let issue):
            switch issue {
            case .nonFiniteCoordinate(let s, let p): return "invalid ink: stroke \(s) point \(p) has a non-finite coordinate"
            case .decreasingTimestamp(let s, let p): return "invalid ink: stroke \(s) point \(p) has a timestamp earlier than the point before it"
            case .tooManyPoints(let c, let l): return "invalid ink: \(c) points, more than the limit of \(l)"
            case .invalidWritingArea(let w, let h): return "invalid writing area \(w)x\(h): both sides must be finite and positive"
            case .tooManyLines(let l): return "invalid ink: the page has more than \(l) lines"
            case .tooLong(let f, let l):
                let count = f.isFinite && f < 1e15 ? String(Int(f)) : "\(f)"
                return "invalid ink: the pen's path is too long for the ink's size (\(count) resampled frames, more than the limit of \(l)); is the writing area right?"
            }
        case .malformedInput(let source, let line, let field, let reason):
            var at = source
            if let line { at += ":\(line)" }
            if let field { at += " (\(field))" }
            return "\(at): \(reason)"
        case .modelNotFound(let id): return "no model \"\(id)\" in the repository"
        case .modelNotDownloaded(let id): return "model \"\(id)\" is not downloaded"
        case .modelCorrupt(let file, let reason): return "model file \(file) is corrupt: \(reason)"
        case .tensorShapeMismatch(let t, let e, let a): return "tensor \(t) has shape \(a), expected \(e)"
        case .manifestMalformed(let s, let r): return "manifest \(s) is malformed: \(r)"
        case .downloadFailed(let url, let status, let reason):
            return "download of \(url) failed" + (status.map { " with HTTP status \($0)" } ?? "") + ": \(reason)"
        case .checksumMismatch(let f, let e, let a): return "\(f): expected \(e), got \(a)"
        case .storageFailed(let p, let r): return "cannot write \(p): \(r)"
        case .invalidOption(let n, let r): return "invalid option \(n): \(r)"
        case .cancelled: return "cancelled"
        }
    }

    /// The same text as ``description``: what went wrong and where (for `localizedDescription`).
    public var errorDescription: String? { description }
}
