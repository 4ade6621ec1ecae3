/// What the recognizer knows besides the ink itself.
///
/// `preContext` is the text before the ink (for example the characters left of the cursor); the
/// language model uses its last ``RecognitionContext/maxPreContextLength`` characters, as ML Kit
/// does. When the pre-context ends in a letter and the ink starts a new word, the best candidate
/// starts with a space.
public struct RecognitionContext: Sendable, Hashable, Codable {
    /// Characters of pre-context the decoder uses (ML Kit's limit).
    public static let maxPreContextLength = 20

    public var preContext: String
    public var writingArea: WritingArea?

    public init(preContext: String = "", writingArea: WritingArea? = nil) {
        self.preContext = preContext
        self.writingArea = writingArea
    }
}
