/// Reads the project JSON format and the compact stroke-array form from UTF-8 bytes, driving a
/// ``JSONScanner`` from the schema so that every error names its field path.
enum InkJSONReader {
    /// Parses one project-format JSON object (the whole input) and validates it. O(bytes).
    ///
    /// - Parameters:
    ///   - firstLine: the line number reported for the first line of `bytes`.
    ///   - trailingHint: appended to the error for content after the object.
    static func document(bytes: UnsafeBufferPointer<UInt8>, source: String, firstLine: Int = 1, trailingHint: String = "") throws(DigitalInkError) -> InkDocument {
        var scanner = JSONScanner(bytes: bytes, source: source, firstLine: firstLine)
        let document = try readDocument(&scanner)
        try scanner.expectEnd(hint: trailingHint)
        try document.validate()
        return document
    }

    /// Parses a top-level stroke-array ink (`[[[xs], [ys], [ts]], ...]`) and validates it. O(bytes).
    static func strokeArrays(bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DigitalInkError) -> InkDocument {
        var scanner = JSONScanner(bytes: bytes, source: source)
        var wide = WideCoordinates()
        var strokes = try readStrokeArrays(&scanner, &wide)
        try scanner.expectEnd()
        let origin = wide.translate(&strokes)
        let document = InkDocument(ink: Ink(strokes: strokes), origin: origin)
        try document.validate()
        return document
    }

    // MARK: Project format

    /// Reads the members of a document object. Unknown members are skipped (their syntax is still
    /// checked); when a member appears twice the last one wins.
    static func readDocument(_ s: inout JSONScanner) throws(DigitalInkError) -> InkDocument {
        let objectStart = s.index
        try s.beginObject("an ink object")
        var strokes: [Stroke]?
        var drawing: [Stroke]?
        var strokesWide = WideCoordinates()
        var drawingWide = WideCoordinates()
        var writingArea: WritingArea?
        var preContext: String?
        var id: String?
        var label: String?
        var text: String?  // "text": the label where "label" is absent (what `inkrec adapt` pairs carry)
        var word: String?
        var keyID: String?
        var first = true
        while let key = try s.nextKey(isFirst: &first) {
            s.path.append(.key(key))
            switch key {
            case "strokes":
                strokesWide = WideCoordinates()
                strokes = try readStrokes(&s, &strokesWide)
            case "drawing":
                drawingWide = WideCoordinates()
                drawing = try readStrokeArrays(&s, &drawingWide)
            case "writingArea":
                writingArea = s.consumeNull() ? nil : try readWritingArea(&s)
            case "preContext":
                preContext = s.consumeNull() ? nil : try s.readString()
            case "label":
                label = s.consumeNull() ? nil : try s.readString()
            case "text":
                text = s.consumeNull() ? nil : try readStringOrSkip(&s)
            case "id":
                id = try readIdentifier(&s)
            case "word":
                word = s.consumeNull() ? nil : try readStringOrSkip(&s)
            case "key_id":
                keyID = try readIdentifier(&s)
            default:
                try s.skipValue()
            }
            s.path.removeLast()
        }
        let ink: Ink
        let origin: InkOrigin
        if var strokes {
            if drawing != nil {
                throw s.fieldError("the object has both \"strokes\" and \"drawing\"; give only one", at: objectStart)
            }
            origin = strokesWide.translate(&strokes)
            ink = Ink(strokes: strokes)
        } else if var drawing {
            // A Quick Draw record: its word and key_id stand in for the label and the id.
            origin = drawingWide.translate(&drawing)
            ink = Ink(strokes: drawing)
            label = label ?? word
            id = id ?? keyID
        } else {
            s.path.append(.key("strokes"))
            defer { s.path.removeLast() }
            throw s.fieldError("missing required field", at: objectStart)
        }
        return InkDocument(id: id, ink: ink, writingArea: writingArea, preContext: preContext, label: label ?? text, origin: origin)
    }

    /// An identifier: a string, or a number kept as written (data sets often use numeric ids).
    private static func readIdentifier(_ s: inout JSONScanner) throws(DigitalInkError) -> String? {
        if s.consumeNull() { return nil }
        if let c = s.peek(), c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
            let token = try s.readNumberToken()
            return s.text(of: token)
        }
        return try s.readString()
    }

    /// A string, or nil after skipping a value of another type (for members of other formats that
    /// are only used when they are strings).
    private static func readStringOrSkip(_ s: inout JSONScanner) throws(DigitalInkError) -> String? {
        if s.peek() == UInt8(ascii: "\"") { return try s.readString() }
        try s.skipValue()
        return nil
    }

    private static func readWritingArea(_ s: inout JSONScanner) throws(DigitalInkError) -> WritingArea {
        let objectStart = s.index
        try s.beginObject("an object with width and height")
        var width: Float?
        var height: Float?
        var first = true
        while let key = try s.nextKey(isFirst: &first) {
            s.path.append(.key(key))
            switch key {
            case "width": width = try s.readFloat()
            case "height": height = try s.readFloat()
            default: try s.skipValue()
            }
            s.path.removeLast()
        }
        guard let width else { throw missing(&s, "width", at: objectStart) }
        guard let height else { throw missing(&s, "height", at: objectStart) }
        return WritingArea(width: width, height: height)
    }

    private static func missing(_ s: inout JSONScanner, _ key: String, at offset: Int) -> DigitalInkError {
        s.path.append(.key(key))
        defer { s.path.removeLast() }
        return s.fieldError("missing required field", at: offset)
    }

    /// `[stroke, ...]` where a stroke is `{"points": [...]}` or directly an array of points.
    private static func readStrokes(_ s: inout JSONScanner, _ wide: inout WideCoordinates) throws(DigitalInkError) -> [Stroke] {
        try s.beginArray("an array of strokes")
        var strokes: [Stroke] = []
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(strokes.count)
            strokes.append(try readStroke(&s, &wide))
        }
        s.path.removeLast()
        return strokes
    }

    private static func readStroke(_ s: inout JSONScanner, _ wide: inout WideCoordinates) throws(DigitalInkError) -> Stroke {
        if s.peek() == UInt8(ascii: "[") {
            return Stroke(points: try readPoints(&s, &wide))
        }
        let objectStart = s.index
        try s.beginObject("a stroke object")
        var points: [StrokePoint]?
        var first = true
        while let key = try s.nextKey(isFirst: &first) {
            s.path.append(.key(key))
            if key == "points" {
                if let points { wide.removeLast(points.count) }  // a repeated member: the last one wins
                points = try readPoints(&s, &wide)
            } else {
                try s.skipValue()
            }
            s.path.removeLast()
        }
        guard let points else { throw missing(&s, "points", at: objectStart) }
        return Stroke(points: points)
    }

    private static func readPoints(_ s: inout JSONScanner, _ wide: inout WideCoordinates) throws(DigitalInkError) -> [StrokePoint] {
        try s.beginArray("an array of points")
        var points: [StrokePoint] = []
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(points.count)
            points.append(try readPoint(&s, &wide))
        }
        s.path.removeLast()
        return points
    }

    /// `{"x": ..., "y": ..., "t": ...}` (t optional) or `[x, y]` / `[x, y, t]`.
    private static func readPoint(_ s: inout JSONScanner, _ wide: inout WideCoordinates) throws(DigitalInkError) -> StrokePoint {
        let start = s.index
        if s.peek() == UInt8(ascii: "[") {
            try s.beginArray()
            var values: (x: (float: Float, double: Double), y: (float: Float, double: Double), t: Int64?) = ((0, 0), (0, 0), nil)
            var count = 0
            var first = true
            s.path.append(.index(0))
            while try s.nextElement(isFirst: &first) {
                s.path[s.path.count - 1] = .index(count)
                switch count {
                case 0: values.x = try s.readCoordinate()
                case 1: values.y = try s.readCoordinate()
                case 2: values.t = s.consumeNull() ? nil : try s.readInt64(what: "an integer timestamp in milliseconds")
                default:
                    s.path.removeLast()
                    throw s.fieldError("a point array holds 2 or 3 numbers ([x, y] or [x, y, t]), found more", at: start)
                }
                count += 1
            }
            s.path.removeLast()
            guard count >= 2 else {
                throw s.fieldError("a point array holds 2 or 3 numbers ([x, y] or [x, y, t]), found \(count)", at: start)
            }
            wide.add(x: values.x.double, y: values.y.double)
            return StrokePoint(x: values.x.float, y: values.y.float, t: values.t)
        }
        try s.beginObject("a point object")
        var x: (float: Float, double: Double)?
        var y: (float: Float, double: Double)?
        var t: Int64?
        var first = true
        while let key = try s.nextKey(isFirst: &first) {
            s.path.append(.key(key))
            switch key {
            case "x": x = try s.readCoordinate()
            case "y": y = try s.readCoordinate()
            case "t": t = s.consumeNull() ? nil : try s.readInt64(what: "an integer timestamp in milliseconds")
            default: try s.skipValue()
            }
            s.path.removeLast()
        }
        guard let x else { throw missing(&s, "x", at: start) }
        guard let y else { throw missing(&s, "y", at: start) }
        wide.add(x: x.double, y: y.double)
        return StrokePoint(x: x.float, y: y.float, t: t)
    }

    // MARK: Stroke arrays

    /// `[[[xs], [ys]], [[xs], [ys], [ts]], ...]`: each stroke is two or three parallel arrays of
    /// equal length.
    static func readStrokeArrays(_ s: inout JSONScanner, _ wide: inout WideCoordinates) throws(DigitalInkError) -> [Stroke] {
        try s.beginArray("an array of strokes, each [[xs...], [ys...]] or [[xs...], [ys...], [ts...]]")
        var strokes: [Stroke] = []
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(strokes.count)
            strokes.append(try readStrokeArray(&s, strokeIndex: strokes.count, &wide))
        }
        s.path.removeLast()
        return strokes
    }

    private static func readStrokeArray(_ s: inout JSONScanner, strokeIndex: Int, _ wide: inout WideCoordinates) throws(DigitalInkError) -> Stroke {
        let start = s.index
        try s.beginArray("a stroke [[xs...], [ys...]] or [[xs...], [ys...], [ts...]]")
        var xs: [(float: Float, double: Double)] = []
        var ys: [(float: Float, double: Double)] = []
        var ts: [Int64]?
        var count = 0
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(count)
            switch count {
            case 0: xs = try readFloats(&s, what: "an array of x values")
            case 1: ys = try readFloats(&s, what: "an array of y values")
            case 2: ts = s.consumeNull() ? nil : try readTimestamps(&s)
            default:
                s.path.removeLast()
                throw s.fieldError("stroke \(strokeIndex) has more than 3 arrays; expected [xs, ys] or [xs, ys, ts]", at: start)
            }
            count += 1
        }
        s.path.removeLast()
        guard count >= 2 else {
            throw s.fieldError("stroke \(strokeIndex) has \(count) array\(count == 1 ? "" : "s"); expected [xs, ys] or [xs, ys, ts]", at: start)
        }
        guard xs.count == ys.count, ts == nil || ts!.count == xs.count else {
            let tPart = ts.map { " and \($0.count) t values" } ?? ""
            throw s.fieldError("stroke \(strokeIndex) has \(xs.count) x values, \(ys.count) y values\(tPart); the lengths must agree", at: start)
        }
        var points: [StrokePoint] = []
        points.reserveCapacity(xs.count)
        for i in xs.indices {
            wide.add(x: xs[i].double, y: ys[i].double)
            points.append(StrokePoint(x: xs[i].float, y: ys[i].float, t: ts?[i]))
        }
        return Stroke(points: points)
    }

    private static func readFloats(_ s: inout JSONScanner, what: String) throws(DigitalInkError) -> [(float: Float, double: Double)] {
        try s.beginArray(what)
        var values: [(float: Float, double: Double)] = []
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(values.count)
            values.append(try s.readCoordinate())
        }
        s.path.removeLast()
        return values
    }

    private static func readTimestamps(_ s: inout JSONScanner) throws(DigitalInkError) -> [Int64] {
        try s.beginArray("an array of timestamps")
        var values: [Int64] = []
        var first = true
        s.path.append(.index(0))
        while try s.nextElement(isFirst: &first) {
            s.path[s.path.count - 1] = .index(values.count)
            values.append(try s.readInt64(what: "an integer timestamp in milliseconds"))
        }
        s.path.removeLast()
        return values
    }
}
