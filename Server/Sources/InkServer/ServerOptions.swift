import DigitalInk
import DigitalInkModels
import Foundation

/// How `inkrec-serve` runs: where it listens, which models it loads at start, and the limits on a
/// request (defaults that a phone app never reaches: a written page is a few thousand points).
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Language tags (or ML Kit identifiers) whose models are installed and loaded at start.
    public var languages = ["en-US", "zxx-Zsym-x-shapes"]
    /// Where models come from: the models built into the server by default.
    public var repository: ModelRepository = DigitalInkModels.repository
    /// Where models are installed.
    public var storage: URL = ModelManager.defaultStorageDirectory
    /// The largest request body: 4 MiB.
    public var maxBodyBytes = 4 << 20
    /// The most strokes in one ink: 5,000.
    public var maxStrokes = 5_000
    /// The most points in one ink: 100,000 (the library's own limit).
    public var maxPoints = 100_000

    public init() {}
}
