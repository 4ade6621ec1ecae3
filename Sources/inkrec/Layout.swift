import ArgumentParser
import DigitalInk
import Foundation

/// `inkrec layout`: the text lines of a page, found from the strokes' geometry alone (no model).
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the text lines of page inks without recognizing them (no model needed): each line's stroke indices, in reading order, and its box.")

    @Argument(help: "Ink files (project JSON, InkML or stroke arrays).")
    var files: [String] = []

    @Option(name: .long, help: "A JSON Lines file of inks, or - for standard input; one JSON answer per input line, in order.")
    var batch: String?

    @Option(name: .long, help: "Output format: text or json.")
    var format: Recognize.OutputFormat = .text

    @Option(name: .long, help: "The writing direction the lines are read in: ltr (word clusters from the left, the default) or rtl (from the right).")
    var direction: WritingDirection = .leftToRight

    func validate() throws {
        if files.isEmpty && batch == nil { throw ValidationError("give ink files or --batch FILE") }
        if !files.isEmpty && batch != nil { throw ValidationError("give either ink files or --batch, not both") }
    }

    func run() throws {
        if let batch {
            let reader = try batchReader(batch)
            for entry in reader {
                var o: [String: Any] = ["line": entry.line]
                if let id = entry.id { o["id"] = id }
                switch entry.result {
                case .failure(let e): o["error"] = "\(e)"
                case .success(let doc):
                    do { o.merge(RecognitionJSON.layout(try InkLayout.lines(of: doc.ink, direction: direction))) { old, _ in old } } catch { o["error"] = "\(error)" }
                }
                print(RecognitionJSON.line(o))
            }
            return
        }
        var failed = false
        for file in files {
            do {
                let doc = try InkDocument.read(contentsOf: URL(fileURLWithPath: file))
                let lines = try InkLayout.lines(of: doc.ink, direction: direction)
                switch format {
                case .json:
                    var o = RecognitionJSON.layout(lines)
                    o["file"] = file
                    if let id = doc.id { o["id"] = id }
                    print(RecognitionJSON.line(o))
                case .text:
                    print("\(file): \(lines.count) line\(lines.count == 1 ? "" : "s")")
                    for (k, line) in lines.enumerated() {
                        let b = line.boundingBox
                        print("  \(k + 1): strokes \(line.strokeIndices.map(String.init).joined(separator: " "))  box x \(b.x) y \(b.y) w \(b.width) h \(b.height)")
                    }
                }
            } catch {
                printError("error: \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

extension WritingDirection: ExpressibleByArgument {}
