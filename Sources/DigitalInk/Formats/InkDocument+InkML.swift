import Foundation

extension InkDocument {
    /// Reads a W3C InkML document (`<ink>` root, namespace `http://www.w3.org/2003/InkML`).
    ///
    /// Traces become strokes in document order, `<traceGroup>` nesting flattened. The trace format
    /// comes from `<traceFormat>`/`<channel>` declarations (directly, in a `<context>` or
    /// `<inkSource>`, or referenced with `contextRef`); without one it is X Y. Channels other than
    /// X, Y and T are dropped; T is taken as milliseconds unless declared with `units="s"` or `"us"`.
    /// Values may be plain numbers or use the difference prefixes `!`, `'` and `"`. Traces in
    /// `<definitions>` and pen-up traces are skipped. `<annotation type="truth">` (directly under
    /// `<ink>`) is the label; annotations of types `id`, `preContext` and `writingArea`
    /// ("width height"), as written by ``inkMLData()``, are read back. X and Y are read as
    /// `Double`; an ink lying far from 0 is moved to its own ``origin`` (see ``InkOrigin``).
    ///
    /// The document must be UTF-8 (optionally with a byte order mark) and declare no other
    /// encoding than UTF-8 or ASCII; a DOCTYPE, and with it any entity declaration, is refused, so
    /// nothing external is ever loaded and no entity is expanded. Elements may nest 512 deep.
    ///
    /// - Throws: ``DigitalInkError/malformedInput(source:line:field:reason:)`` for invalid UTF-8
    ///   (with the line of the first bad byte), UTF-16 or another declared encoding, a DOCTYPE
    ///   ("InkML with a DOCTYPE or entity declarations is not accepted", with its line), malformed
    ///   XML (with the line the parser reports and libxml2's error number, such as
    ///   "malformed XML: opening and ending tag mismatch (libxml2 error 76)"), an unexpected root
    ///   element, unknown references, nesting deeper than 512, or a bad trace (field `trace[i]`,
    ///   the index among `<trace>` elements outside `<definitions>`, and a reason naming the
    ///   point); ``DigitalInkError/invalidInk(_:)`` for invalid ink.
    /// - Complexity: O(n) in the size of the input.
    public init(inkML data: Data, source: String = "<input>") throws(DigitalInkError) {
        self = try InkMLReader.read(data, source: source)
    }

    /// Writes the document as InkML: a `<context>` with the trace format (X Y, plus T in
    /// milliseconds when every point has a timestamp; otherwise timestamps are dropped), one
    /// `<trace>` per stroke with plain absolute values (a nonzero ``origin`` added back), and
    /// annotations for the id (`id`), label
    /// (`truth`), pre-context (`preContext`) and writing area (`writingArea`). Numbers are written
    /// in their shortest exact form, so ``init(inkML:source:)`` reads back an equal document.
    ///
    /// - Throws: ``DigitalInkError/invalidInk(_:)`` when the document does not pass ``validate()``.
    /// - Complexity: O(points).
    public func inkMLData() throws(DigitalInkError) -> Data {
        try validate()
        return Data(InkMLWriter.write(self))
    }
}
