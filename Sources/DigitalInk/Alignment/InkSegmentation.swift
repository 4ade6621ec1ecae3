/// Which strokes, and which points of them, produced each character and each word of a candidate.
///
/// Computed from the candidate's own CTC path (the best alignment of its characters to the network's
/// frames, mapped back to the points through the resampling), not from a second model. A stroke that
/// the network reads as no character (an i-dot or a t-bar written after the word) goes to the
/// character nearest to it on the line. Coordinates and stroke indices are those of the ink that was
/// recognized (for a page, of the page).
public struct InkSegmentation: Sendable, Hashable, Codable {
    /// One character per character of the candidate's text, in order. Spaces have no strokes.
    public var characters: [CharacterSegment]
    /// The words: the runs of characters between spaces.
    public var words: [WordSegment]

    public init(characters: [CharacterSegment], words: [WordSegment]) {
        self.characters = characters
        self.words = words
    }
}

/// A run of points of one stroke: `ink.strokes[stroke].points[points]`.
public struct StrokeSpan: Sendable, Hashable, Codable {
    public var stroke: Int
    public var points: Range<Int>

    public init(stroke: Int, points: Range<Int>) {
        self.stroke = stroke
        self.points = points
    }
}

/// One character of a candidate and the ink that produced it.
public struct CharacterSegment: Sendable, Hashable, Codable {
    public var text: String
    /// The stroke spans of the character, in stroke order (empty for a space).
    public var strokes: [StrokeSpan]
    /// The box around those points (nil when there are none).
    public var boundingBox: BoundingBox?

    public init(text: String, strokes: [StrokeSpan], boundingBox: BoundingBox?) {
        self.text = text
        self.strokes = strokes
        self.boundingBox = boundingBox
    }
}

/// One word of a candidate (characters between spaces) and the ink that produced it.
public struct WordSegment: Sendable, Hashable, Codable {
    public var text: String
    /// Its characters: indices into ``InkSegmentation/characters``.
    public var characters: Range<Int>
    /// The stroke spans of its characters, merged per stroke, in stroke order.
    public var strokes: [StrokeSpan]
    public var boundingBox: BoundingBox?

    public init(text: String, characters: Range<Int>, strokes: [StrokeSpan], boundingBox: BoundingBox?) {
        self.text = text
        self.characters = characters
        self.strokes = strokes
        self.boundingBox = boundingBox
    }
}

extension BoundingBox {
    /// The box around the points of `spans` of `ink`; nil for no points.
    init?(spans: [StrokeSpan], of ink: Ink) {
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for span in spans {
            for p in ink.strokes[span.stroke].points[span.points] {
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX else { return nil }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
