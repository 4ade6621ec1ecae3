import ArgumentParser
import DigitalInk
import Foundation

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Draw an ink as SVG: strokes in writing order, optional points, writing area, text lines, and the characters the recognizer reads.")

    @Argument(help: "Ink file (project JSON, InkML or stroke arrays).")
    var file: String

    @Option(name: .shortAndLong, help: "Output SVG file (- for standard output).")
    var output: String = "-"

    @Flag(name: .long, help: "Mark every sampled point.")
    var points = false

    @Flag(name: .long, help: "Number the strokes at their start.")
    var numbers = false

    @Flag(name: .long, help: "Draw the text lines the page reader finds: a numbered box around each line, its strokes in the line's colour.")
    var page = false

    @Flag(name: .long, help: "Recognize the ink (each line, with --page) and draw each character of the best candidate: its points in its own colour, its box and its label.")
    var segments = false

    @Option(name: .long, help: "With --page: the writing direction the lines are read in, ltr or rtl (default ltr). With --segments the model's direction is used.")
    var direction: WritingDirection?

    @OptionGroup var model: ModelOptions

    @Option(name: .long, help: "With --segments: load the model from this directory instead of the model store.")
    var modelDirectory: String?

    @Option(name: .long, help: "Size of the writing area to draw, WIDTHxHEIGHT (default: the file's, if any).")
    var writingArea: String?

    func validate() throws {
        if let w = writingArea, Recognize.parseArea(w) == nil { throw ValidationError("--writing-area must look like 600x120") }
        if direction != nil, !page { throw ValidationError("--direction needs --page") }
        if direction != nil, segments { throw ValidationError("--direction cannot be given with --segments: the lines are read in the model's direction") }
    }

    func run() async throws {
        let doc: InkDocument
        do { doc = try InkDocument.read(contentsOf: URL(fileURLWithPath: file)) } catch { throw fail(error) }
        let area = writingArea.flatMap(Recognize.parseArea) ?? doc.writingArea
        var lines: [InkSVG.Line]? = nil
        if page, !segments {
            do { lines = try InkLayout.lines(of: doc.ink, direction: direction ?? .leftToRight).map { InkSVG.Line(strokeIndices: $0.strokeIndices, boundingBox: $0.boundingBox) } }
            catch { throw fail(error) }
        }
        var characters: [CharacterSegment]? = nil
        if segments {
            do {
                let recognizer = DigitalInkRecognizer(options: try await model.recognizerOptions(modelDirectory: modelDirectory))
                let context = RecognitionContext(preContext: doc.preContext ?? "", writingArea: area)
                if page {
                    // The lines the recognizer read, in its model's direction: their boxes and the
                    // characters of their best candidates (in the text's order, wherever they lie).
                    let result = try await recognizer.recognizePage(doc.ink, context: context)
                    lines = result.lines.map { InkSVG.Line(strokeIndices: $0.strokeIndices, boundingBox: $0.boundingBox) }
                    characters = result.lines.flatMap { $0.candidates.first?.segments?.characters ?? [] }
                } else {
                    characters = try await recognizer.recognize(doc.ink, context: context).candidates.first?.segments?.characters ?? []
                }
            } catch {
                throw fail(error)
            }
        }
        let svg = InkSVG(ink: doc.ink, writingArea: area, markPoints: points, numberStrokes: numbers, title: doc.id ?? file,
                         lines: lines, characters: characters).render()
        if output == "-" {
            print(svg)
        } else {
            do { try Data(svg.utf8).write(to: URL(fileURLWithPath: output)) } catch { throw fail(error) }
        }
    }
}

/// SVG drawing of an ink. Stroke colours run through the hues in writing order.
struct InkSVG {
    var ink: Ink
    var writingArea: WritingArea?
    var markPoints: Bool
    var numberStrokes: Bool
    var title: String
    /// A text line to draw: its strokes and its box, in the ink's coordinates (``InkLayout/Line`` or a
    /// recognized page's line).
    struct Line {
        var strokeIndices: [Int]
        var boundingBox: BoundingBox
    }

    /// Text lines to draw (boxes, strokes coloured by line), or nil.
    var lines: [Line]? = nil
    /// Characters to draw over the ink (their points coloured, boxes, labels), or nil.
    var characters: [CharacterSegment]? = nil

    /// Coordinates are handled in Double, so that an ink spanning the whole Float range still gives
    /// finite sizes (its extent, 6.8e38, overflows Float).
    func render() -> String {
        let pts = ink.strokes.flatMap(\.points)
        var minX = pts.map { Double($0.x) }.min() ?? 0, maxX = pts.map { Double($0.x) }.max() ?? 1
        var minY = pts.map { Double($0.y) }.min() ?? 0, maxY = pts.map { Double($0.y) }.max() ?? 1
        if let a = writingArea {
            minX = min(minX, 0); minY = min(minY, 0); maxX = max(maxX, Double(a.width)); maxY = max(maxY, Double(a.height))
        }
        let span = max(maxX - minX, maxY - minY, 1)
        let pad = span * 0.05
        let width = maxX - minX + 2 * pad, height = maxY - minY + 2 * pad
        // Thin enough for a page much wider than high (a line of text is ~30 times wider than high).
        let lineWidth = max(min(maxX - minX, maxY - minY, span) / 150, span / 3000)
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        func f(_ v: Float) -> String { f(Double(v)) }
        let pixelHeight = Int(min(max((800 * height / width).rounded(), 1), 100_000))
        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(f(minX - pad)) \(f(minY - pad)) \(f(width)) \(f(height))" width="800" height="\(pixelHeight)">
        <title>\(escape(title))</title>
        <rect x="\(f(minX - pad))" y="\(f(minY - pad))" width="\(f(width))" height="\(f(height))" fill="white"/>

        """
        if let a = writingArea {
            s += "<rect x=\"0\" y=\"0\" width=\"\(f(a.width))\" height=\"\(f(a.height))\" fill=\"none\" stroke=\"#bbb\" stroke-dasharray=\"\(f(lineWidth * 4))\" stroke-width=\"\(f(lineWidth))\"/>\n"
        }
        let n = max(ink.strokes.count, 1)
        var lineOf: [Int: Int] = [:]
        for (k, line) in (lines ?? []).enumerated() { for i in line.strokeIndices { lineOf[i] = k } }
        func lineColor(_ k: Int) -> String { "hsl(\((k * 137) % 360), 75%, 38%)" }
        for (k, line) in (lines ?? []).enumerated() {
            let b = line.boundingBox
            let m = lineWidth * 3
            s += "<rect x=\"\(f(Double(b.x) - m))\" y=\"\(f(Double(b.y) - m))\" width=\"\(f(Double(b.width) + 2 * m))\" height=\"\(f(Double(b.height) + 2 * m))\" fill=\"none\" stroke=\"\(lineColor(k))\" stroke-width=\"\(f(lineWidth))\"/>\n"
            s += "<text x=\"\(f(Double(b.x) - m))\" y=\"\(f(Double(b.y) - 2 * m))\" font-size=\"\(f(lineWidth * 12))\" fill=\"\(lineColor(k))\">line \(k + 1)</text>\n"
        }
        for (i, stroke) in ink.strokes.enumerated() where !stroke.points.isEmpty {
            let color = lineOf[i].map(lineColor) ?? "hsl(\(Int(300 * Double(i) / Double(n))), 80%, 35%)"
            let coords = stroke.points.map { "\(f($0.x)),\(f($0.y))" }.joined(separator: " ")
            if stroke.points.count == 1 {
                s += "<circle cx=\"\(f(stroke.points[0].x))\" cy=\"\(f(stroke.points[0].y))\" r=\"\(f(lineWidth * 1.5))\" fill=\"\(color)\"/>\n"
            } else {
                s += "<polyline points=\"\(coords)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(f(lineWidth * 2))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
            }
            if markPoints {
                for p in stroke.points {
                    s += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(lineWidth))\" fill=\"black\" opacity=\"0.5\"/>\n"
                }
            }
            if numberStrokes {
                let p = stroke.points[0]
                s += "<text x=\"\(f(p.x))\" y=\"\(f(Double(p.y) - lineWidth * 3))\" font-size=\"\(f(lineWidth * 10))\" fill=\"\(color)\">\(i + 1)</text>\n"
            }
        }
        for (k, c) in (characters ?? []).enumerated() where !c.strokes.isEmpty {
            let color = "hsl(\((k * 137) % 360), 85%, 40%)"
            for span in c.strokes {
                let points = ink.strokes[span.stroke].points[span.points]
                let coords = points.map { "\(f($0.x)),\(f($0.y))" }.joined(separator: " ")
                if points.count == 1, let p = points.first {
                    s += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(lineWidth * 2))\" fill=\"\(color)\"/>\n"
                } else {
                    s += "<polyline points=\"\(coords)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(f(lineWidth * 3))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
                }
            }
            if let b = c.boundingBox {
                s += "<rect x=\"\(f(b.x))\" y=\"\(f(b.y))\" width=\"\(f(b.width))\" height=\"\(f(b.height))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(f(lineWidth * 0.7))\" opacity=\"0.8\"/>\n"
                s += "<text x=\"\(f(b.x))\" y=\"\(f(Double(b.y) - lineWidth * 3))\" font-size=\"\(f(lineWidth * 16))\" font-family=\"sans-serif\" fill=\"\(color)\">\(escape(c.text))</text>\n"
            }
        }
        return s + "</svg>"
    }

    func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
