import ArgumentParser
import DigitalInk
import Foundation

@main
struct InkRec: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkrec",
        abstract: "Recognize handwriting from recorded ink, manage models, render ink.",
        version: DigitalInkLibrary.version,
        subcommands: [Recognize.self, Adapt.self, Models.self, Render.self, Layout.self],
        defaultSubcommand: Recognize.self
    )
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Turns a library error into a message on standard error and exit status 1.
func fail(_ error: any Error) -> ExitCode {
    printError("error: \(error)")
    return ExitCode(1)
}

/// The reader of a `--batch` argument: a JSON Lines file, or standard input for `-`; a file that
/// cannot be read is an error on standard error and exit status 1.
func batchReader(_ path: String) throws -> InkBatchReader {
    do {
        return path == "-" ? InkBatchReader(fileHandle: .standardInput, source: "<stdin>")
                           : try InkBatchReader(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw fail(error)
    }
}
