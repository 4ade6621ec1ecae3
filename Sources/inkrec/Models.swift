import ArgumentParser
import DigitalInk
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Models: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, download, delete and inspect recognition models.",
        subcommands: [List.self, Download.self, Delete.self, Status.self, Export.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Models in the repository, and which are installed.")
        @OptionGroup var options: ModelOptions

        func run() async throws {
            do {
                let manager = try options.manager()
                let manifest = try await manager.fetchManifest()
                print("repository: \(manager.repository)")
                for m in manifest.models {
                    let installed = manager.installedModel(m.model)
                    let state = installed.map { "installed \($0.version)" } ?? "not installed"
                    let aliases = m.aliases.isEmpty ? "" : " (\(m.aliases.map(\.languageTag).joined(separator: ", ")))"
                    print("\(m.identifier)\(aliases)  \(m.kind)  v\(m.version)  \(sizeColumn(m, in: manifest))  \(m.license)  \(state)")
                }
                // Files several models list are downloaded and stored once: their size once, here.
                let installedDigests = Set(manager.installedModels().flatMap { $0.files.map(\.sha256) })
                for shared in manifest.sharedFiles {
                    let users = shared.models.map(\.languageTag).joined(separator: ", ")
                    let state = installedDigests.contains(shared.file.sha256) ? "installed" : "not installed"
                    print("shared: \(shared.file.path)  \(byteCount(shared.file.size)), used by \(shared.models.count) models (\(users))  \(state)")
                }
            } catch let e as ExitCode {
                throw e
            } catch {
                throw fail(error)
            }
        }
    }

    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Download and verify a model (a progress bar on a terminal).")
        @OptionGroup var options: ModelOptions

        func run() async throws {
            do {
                let manager = try options.manager()
                let model = try options.model(in: try await manager.fetchManifest())
                let download = manager.download(model)
                let tty = isatty(STDERR_FILENO) == 1
                var lastLine = ""
                var damagedReported = 0
                for try await p in download {
                    for path in p.damagedFiles.dropFirst(damagedReported) {
                        if tty { FileHandle.standardError.write(Data("\n".utf8)) }
                        printError("warning: the stored copy of \(path) is damaged (wrong size or SHA-256); downloading it again")
                    }
                    damagedReported = max(damagedReported, p.damagedFiles.count)
                    let line = progressLine(p, bar: tty)
                    if tty {
                        FileHandle.standardError.write(Data(("\r" + line).utf8))
                    } else if line != lastLine {
                        printError(line)
                    }
                    lastLine = line
                }
                if tty { FileHandle.standardError.write(Data("\n".utf8)) }
                let installed = try await download.wait()
                print("installed \(installed.model.modelIdentifier.languageTag) \(installed.version) in \(installed.modelDirectory.path)")
            } catch let e as ExitCode {
                throw e
            } catch {
                throw fail(error)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an installed model.")
        @OptionGroup var options: ModelOptions

        func run() async throws {
            do {
                let manager = try options.manager()
                let model = try options.model(in: try await manager.fetchManifest())
                try await manager.deleteDownloadedModel(model)
                print("deleted \(model.modelIdentifier.languageTag)")
            } catch let e as ExitCode {
                throw e
            } catch {
                throw fail(error)
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Installed models, with version, size and location.")
        @OptionGroup var options: ModelOptions

        func run() async throws {
            do {
                let manager = try options.manager()
                let installed = manager.installedModels()
                print("storage: \(manager.storageDirectory.path)")
                if installed.isEmpty { print("no models installed") }
                for m in installed.sorted(by: { $0.model.modelIdentifier < $1.model.modelIdentifier }) {
                    print("\(m.model.modelIdentifier.languageTag)  v\(m.version)  \(byteCount(m.sizeInBytes))  \(m.modelDirectory.path)")
                }
                if installed.count > 1 {
                    // Shared files (one network for several languages) are stored once.
                    var seen = Set<String>()
                    let files = installed.flatMap(\.files).filter { seen.insert($0.sha256).inserted }
                    print("total: \(byteCount(ModelManifest.File.totalSize(files))) on disk (shared files counted once)")
                }
            } catch let e as ExitCode {
                throw e
            } catch {
                throw fail(error)
            }
        }
    }
}

extension Models {
    /// Writes a repository with only the chosen models: for an app's bundle (`ModelRepository.bundle`).
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a model repository with only the chosen models, for an app to bundle.",
            discussion: """
            Installs each model from the repository (verified), then copies its files and a manifest that \
            lists only these models into the output directory: copy that directory into your app's \
            resources as Models/ and use ModelRepository.bundle(.main) (ModelManager.shared does).
            """)
        @OptionGroup var options: ModelOptions
        @Option(name: .long, parsing: .upToNextOption, help: "Models to export, as language tags or identifiers (one or more).")
        var models: [String]
        @Option(name: .shortAndLong, help: "The directory to write (created; must be empty or missing).")
        var output: String

        func validate() throws {
            if models.isEmpty { throw ValidationError("give --models with at least one language tag") }
        }

        func run() async throws {
            do {
                let manager = try options.manager()
                let manifest = try await manager.fetchManifest()
                let out = URL(fileURLWithPath: output, isDirectory: true)
                let fm = FileManager.default
                if let existing = try? fm.contentsOfDirectory(atPath: out.path), !existing.isEmpty {
                    throw ValidationError("\(output) is not empty")
                }
                try fm.createDirectory(at: out, withIntermediateDirectories: true)
                var entries: [ModelManifest.Model] = []
                for tag in models {
                    guard let id = try DigitalInkRecognitionModelIdentifier.from(languageTag: tag, in: manifest),
                          let entry = manifest.model(for: id) else {
                        throw ValidationError("no model for \"\(tag)\" in \(manager.repository)")
                    }
                    guard !entries.contains(where: { $0.identifier == id }) else { continue }
                    let installed = try await manager.download(entry.model).wait()
                    // The installed version directory has the repository's layout.
                    guard let config = entry.configFile else { throw ValidationError("\(id) lists no config.json") }
                    var root = installed.modelDirectory.appendingPathComponent("config.json")
                    for _ in config.path.split(separator: "/") { root.deleteLastPathComponent() }
                    for file in entry.files {
                        let target = out.appendingPathComponent(file.path)
                        try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                        if !fm.fileExists(atPath: target.path) {
                            try fm.copyItem(at: root.appendingPathComponent(file.path), to: target)
                        }
                    }
                    entries.append(entry)
                    print("exported \(id.languageTag) \(entry.version)")
                }
                try ModelManifest(models: entries).encoded().write(to: out.appendingPathComponent(ModelManifest.fileName))
                print("wrote \(out.path) (\(entries.count) model\(entries.count == 1 ? "" : "s"))")
            } catch let e as ExitCode {
                throw e
            } catch let e as ValidationError {
                throw e
            } catch {
                throw fail(error)
            }
        }
    }
}

/// A model's size for `models list`: all its files, or its own files plus the files it shares
/// with other models of the manifest (listed once, under the models).
func sizeColumn(_ model: ModelManifest.Model, in manifest: ModelManifest) -> String {
    let shared = manifest.sharedFiles(of: model)
    guard !shared.isEmpty else { return byteCount(model.totalSize) }
    return "\(byteCount(ModelManifest.File.totalSize(manifest.ownFiles(of: model)))) + \(byteCount(ModelManifest.File.totalSize(shared))) shared"
}

func byteCount(_ n: Int64) -> String {
    n >= 1 << 20 ? String(format: "%.1f MB", Double(n) / 1_048_576) : String(format: "%.1f kB", Double(n) / 1024)
}

func progressLine(_ p: ModelDownloadProgress, bar: Bool) -> String {
    let pct = Int((p.fractionCompleted * 100).rounded(.down))
    let phase = "\(p.phase)"
    guard bar else { return "\(phase) \(pct)%" }
    let width = 30
    let filled = min(width, Int(p.fractionCompleted * Double(width)))
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(pct)% \(phase) \(byteCount(p.completedBytes))/\(byteCount(p.totalBytes))"
}
