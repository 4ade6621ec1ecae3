/// The contexts each line of a page is read under, from the text of the lines above it.
///
/// The first line (and any line with no text-bearing line above) is read after the page's
/// pre-context; a line below one with text is read both after that line's text plus the separator
/// (prior `continuation`) and afresh (prior `1 − continuation`). The page's post-context follows
/// its last line only.
struct LineContextChain: Sendable {
    private var preContext: String
    private var hasLineAbove = false
    private let postContext: String
    private let separator: String
    private let continuation: Float

    init(page: RecognitionContext, separator: String, continuation: Float) {
        preContext = page.preContext
        postContext = page.postContext
        self.separator = separator
        self.continuation = continuation
    }

    /// The contexts of the next line, with their priors.
    func contexts(isLast: Bool) -> [(context: RecognitionContext, prior: Float)] {
        let post = isLast ? postContext : ""
        return !hasLineAbove
            ? [(RecognitionContext(preContext: preContext, postContext: post), Float(1))]
            : [(RecognitionContext(preContext: preContext, postContext: post), continuation),
               (RecognitionContext(preContext: "", postContext: post), 1 - continuation)]
    }

    /// Records the text read on a line (an empty line leaves the chain as it is).
    mutating func append(_ text: String) {
        guard !text.isEmpty else { return }
        hasLineAbove = true
        preContext = text + separator
    }
}
