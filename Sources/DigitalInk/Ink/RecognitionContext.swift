/// What the recognizer knows besides the ink itself.
///
/// `preContext` is the text before the ink (for example the characters left of the cursor); the
/// language model uses its last ``RecognitionContext/maxPreContextLength`` characters, as ML Kit
/// does. When the pre-context ends in a letter and the ink starts a new word, the best candidate
/// starts with a space.
///
/// `postContext` is the text after the insertion point (ML Kit has no such field): its first
/// ``RecognitionContext/maxPostContextLength`` characters are scored by the language model after each
/// complete candidate, so that a candidate that reads well before them wins ("th" + ink + "e cat":
/// the ink is more likely "os" than "as"). It replaces the end-of-text term (how likely the text ends
/// there): with a post-context the text does not end.
public struct RecognitionContext: Sendable, Hashable, Codable {
    /// Characters of pre-context the decoder uses (ML Kit's limit).
    public static let maxPreContextLength = 20
    /// Characters of post-context the decoder uses.
    public static let maxPostContextLength = 20

    public var preContext: String
    public var postContext: String
    public var writingArea: WritingArea?

    public init(preContext: String = "", postContext: String = "", writingArea: WritingArea? = nil) {
        self.preContext = preContext
        self.postContext = postContext
        self.writingArea = writingArea
    }

    enum CodingKeys: String, CodingKey { case preContext, postContext, writingArea }

    /// Decodes a context; `postContext` may be absent (contexts written before it existed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        preContext = try c.decode(String.self, forKey: .preContext)
        postContext = try c.decodeIfPresent(String.self, forKey: .postContext) ?? ""
        writingArea = try c.decodeIfPresent(WritingArea.self, forKey: .writingArea)
    }
}
