/// The direction a script is written in along a line: what decides the reading order of a page.
///
/// A model's `config.json` names its direction in `"direction"` (`"ltr"` or `"rtl"`; absent means
/// left to right); ``DigitalInkRecognizer/writingDirection`` reads it.
/// ``DigitalInkRecognizer/recognizePage(_:context:)`` reads a page in its model's direction, and
/// ``InkLayout/lines(of:direction:)`` finds a page's lines in any direction. Lines go top to bottom
/// either way; the direction decides the order of the words inside a line.
///
/// Coded as its raw value, `"ltr"` or `"rtl"`.
public enum WritingDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left to right (Latin, Cyrillic, Greek, Korean, Chinese and Japanese written in rows): a line's
    /// words are read from its left end. `"ltr"`.
    case leftToRight = "ltr"
    /// Right to left (Hebrew, Arabic): a line's words are read from its right end. `"rtl"`.
    case rightToLeft = "rtl"
}
