/// The candidates for one ink, best first. Empty for an empty ink.
public struct DigitalInkRecognitionResult: Sendable, Hashable, Codable {
    public var candidates: [DigitalInkRecognitionCandidate]

    public init(candidates: [DigitalInkRecognitionCandidate]) {
        self.candidates = candidates
    }

    /// The best candidate, if any.
    public var best: DigitalInkRecognitionCandidate? { candidates.first }
}
