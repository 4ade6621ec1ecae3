import Foundation
@_spi(Engine) @testable import DigitalInk

/// Access to the golden fixtures in `Fixtures/` (copied as test resources).
enum Fixtures {
    static func url(_ path: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(path)
    }

    static func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url(path))) as! [String: Any]
    }

    /// An ink from the fixture JSON form `{"strokes": [{"points": [{"x":..,"y":..}]}], "writingArea": ...}`.
    static func ink(_ object: Any) -> (Ink, WritingArea?) {
        let o = object as! [String: Any]
        let strokes = (o["strokes"] as! [[String: Any]]).map { s in
            Stroke(points: (s["points"] as! [[String: Any]]).map { p in
                StrokePoint(x: (p["x"] as! NSNumber).floatValue, y: (p["y"] as! NSNumber).floatValue,
                            t: (p["t"] as? NSNumber)?.int64Value)
            })
        }
        var area: WritingArea? = nil
        if let a = o["writingArea"] as? [String: Any] {
            area = WritingArea(width: (a["width"] as! NSNumber).floatValue, height: (a["height"] as! NSNumber).floatValue)
        }
        return (Ink(strokes: strokes), area)
    }

    static func matrix(_ rows: Any, columns: Int) -> FeatureMatrix {
        let r = rows as! [[NSNumber]]
        return FeatureMatrix(rows: r.count, columns: columns, values: r.flatMap { $0.map(\.floatValue) })
    }

    /// The package's `Models/` directory (the embedded repository).
    static var modelsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Models")
    }
}

func maxAbsDifference(_ a: FeatureMatrix, _ b: FeatureMatrix) -> Float {
    precondition(a.values.count == b.values.count)
    return zip(a.values, b.values).reduce(0) { max($0, abs($1.0 - $1.1)) }
}
