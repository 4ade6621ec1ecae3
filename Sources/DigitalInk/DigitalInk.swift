/// DigitalInk turns digital ink (pen or finger strokes) into text, on the device.
///
/// Start with ``DigitalInkRecognizer``; inks are ``Ink`` values made of ``Stroke``s of
/// ``StrokePoint``s.
public enum DigitalInkLibrary {
    /// The library's version.
    public static let version = "0.1.0"
}
