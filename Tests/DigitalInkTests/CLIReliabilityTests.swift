import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `inkrec` against inputs that once lost lines, crashed it, or ran without bound.
@Suite("inkrec reliability", .serialized)
struct CLIReliabilityTests {
    static func objects(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    @Test("a batch of 70,000 lines (more than the old 65,536-line buffer) is answered line for line, in order")
    func longBatch() async throws {
        let storage = try CLI.temporaryDirectory().path
        let hello = String(decoding: try sample("hello.json").jsonData(), as: UTF8.self)
        let count = 70_000
        var lines: [String] = []
        lines.reserveCapacity(count)
        for i in 1...count {
            switch i {
            case 10: lines.append("")                                            // blank
            case 20: lines.append(#"{"id":"cut","strokes":[[[1,2"#)               // truncated
            case 30: lines.append(#"{"id":"crash","strokes":[[[0,0],[100,0]]],"writingArea":{"width":1,"height":1e-30}}"#)
            case 40, 69_990: lines.append(hello.replacingOccurrences(of: "\n", with: " "))
            default: lines.append(#"{"id":"g\#(i)","strokes":[]}"#)
            }
        }
        let file = try CLI.temporaryDirectory().appendingPathComponent("long.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let r = try await CLI.run(["recognize", "--batch", file.path, "--storage", storage, "--max-results", "1"])
        #expect(r.status == 0, "\(r.stderr.prefix(2000))")
        let out = Self.objects(r.stdout)
        try #require(out.count == count)
        let firstWrong = out.indices.first { out[$0]["line"] as? Int != $0 + 1 }
        #expect(firstWrong == nil, "answer \(firstWrong ?? 0) has line \(firstWrong.map { out[$0]["line"] ?? "none" } ?? "")")
        #expect(out[0]["id"] as? String == "g1" && out[count - 1]["id"] as? String == "g\(count)")
        #expect(out[9]["error"] != nil)
        #expect(out[19]["id"] as? String == "cut" && out[19]["error"] != nil)
        #expect(out[29]["id"] as? String == "crash" && (out[29]["error"] as? String)?.contains("too long") == true)
        for i in [39, 69_989] {
            #expect(((out[i]["candidates"] as? [[String: Any]])?.first?["text"] as? String) == "hello")
        }
    }

    @Test("options out of range are refused with a message, before any work")
    func optionRanges() async throws {
        let cases: [([String], String)] = [
            (["--max-results", "9223372036854775807"], "max-results"),
            (["--max-results", "100000000000"], "max-results"),
            (["--max-results", "0"], "max-results"),
            (["--beam-width", "99999999"], "beam-width"),
            (["--lm-weight", "nan"], "lm-weight"),
            (["--writing-area", "1e-30x0"], "writing-area"),
        ]
        for (arguments, flag) in cases {
            let r = try await CLI.run(["recognize", "Samples/hello.json"] + arguments)
            #expect(r.status != 0 && r.stderr.contains(flag), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("inks that once trapped the process get an error; the files after them are still read")
    func crashers() async throws {
        let dir = try CLI.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.json")
        try Data(#"{"strokes":[[[0],[1,0]]]}"#.utf8).write(to: bad)
        try Data(#"{"strokes":[[[0,0]],[[1,0]],[[0,0],[3e38,0]]]}"#.utf8).write(to: bad)
        let r = try await CLI.run(["recognize", bad.path, "Samples/hello.json", "--writing-area", "1e-30x1e-30"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("too long"), "\(r.stderr)")
        #expect(r.stdout.contains("Samples/hello.json:") == false)  // the writing area refuses it too
        let again = try await CLI.run(["recognize", bad.path, "Samples/hello.json"])
        #expect(again.status == 1)
        #expect(again.stdout.contains("Samples/hello.json: hello"), "\(again.stdout)")
    }

    @Test("an ink offset by 1e9 reads as the same ink at 0 (coordinates are moved to the ink's origin before narrowing)")
    func farOffset() async throws {
        let doc = try sample("hello.json")
        let strokes = doc.ink.strokes.map { s in
            "[" + s.points.map { "[\(1e9 + Double($0.x)),\(1e9 + Double($0.y))]" }.joined(separator: ",") + "]"
        }.joined(separator: ",")
        let file = try CLI.temporaryDirectory().appendingPathComponent("far.json")
        try Data(#"{"strokes":[\#(strokes)]}"#.utf8).write(to: file)
        let far = try await CLI.run(["recognize", file.path, "--format", "json"])
        let near = try await CLI.run(["recognize", "Samples/hello.json", "--format", "json"])
        #expect(far.status == 0, "\(far.stderr)")
        let text = { (r: InkRecRun) in ((Self.objects(r.stdout).first?["candidates"] as? [[String: Any]])?.first?["text"] as? String) }
        #expect(text(far) == "hello" && text(near) == "hello", "\(far.stdout)")
    }

    @Test("render draws an ink spanning the whole Float range")
    func renderExtremes() async throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("wide.json")
        try Data(#"{"strokes":[[[-3e38,-3e38],[3e38,3e38]]]}"#.utf8).write(to: file)
        let r = try await CLI.run(["render", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<svg") && r.stdout.contains("<polyline") && !r.stdout.contains("inf") && !r.stdout.contains("nan"))
    }

    @Test("timestamps going backwards: read with a warning, or refused with --strict-timestamps")
    func timestamps() async throws {
        var doc = try sample("hello.json")
        doc.ink.strokes[0].points[3].t = 0
        let file = try CLI.temporaryDirectory().appendingPathComponent("glitch.json")
        try doc.jsonData().write(to: file)
        let lenient = try await CLI.run(["recognize", file.path])
        #expect(lenient.status == 0 && lenient.stdout.contains(": hello"), "\(lenient.stderr)")
        #expect(lenient.stderr.contains("warning") && lenient.stderr.contains("stroke 0 point 3"), "\(lenient.stderr)")
        let strict = try await CLI.run(["recognize", file.path, "--strict-timestamps"])
        #expect(strict.status == 1 && strict.stderr.contains("timestamp"), "\(strict.stderr)")
    }

    @Test("six processes installing into one empty store at once wait for each other; all succeed")
    func concurrentInstalls() async throws {
        let storage = try CLI.temporaryDirectory().appendingPathComponent("store")
        let runs = (0..<6).map { k in
            let p = Process()
            p.executableURL = CLI.executable
            p.arguments = ["recognize", CLI.packageRoot.appendingPathComponent("Samples/hello.json").path,
                           "--storage", storage.path] + (k % 2 == 0 ? [] : ["--language", "en"])
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            return (p, out, err)
        }
        for (p, _, _) in runs { try p.run() }
        for (p, out, err) in runs {
            let run = await CLI.finish(p, out: out, err: err)
            let text = run.stdout
            #expect(run.status == 0, "\(run.stderr)")
            #expect(text.hasSuffix("hello.json: hello\n") || text.contains("hello.json: hello\n"), "\(text)")
        }
        let manager = ModelManager(repository: .directory(Fixtures.modelsDirectory), storageDirectory: storage)
        #expect(manager.installedModels().map(\.model.modelIdentifier.languageTag) == ["en-US"])
    }

    @Test("an installed model is used, with a warning, when the repository is down or its update fails")
    func offline() async throws {
        let storage = try CLI.temporaryDirectory()
        // A copy of the embedded repository (a directory repository) to install from.
        let repository = try CLI.temporaryDirectory().appendingPathComponent("Models")
        try FileManager.default.copyItem(at: Fixtures.modelsDirectory, to: repository)
        let install = try await CLI.run(["models", "download", "--repository", repository.absoluteString, "--storage", storage.path, "--language", "en-US"])
        #expect(install.status == 0, "\(install.stderr)")

        // The repository is gone.
        let dead = "http://127.0.0.1:1/"  // nothing listens there (a stopped test server's port may be taken again)
        let down = try await CLI.run(["recognize", "Samples/hello.json", "--repository", dead, "--storage", storage.path])
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.hasPrefix("Samples/hello.json: hello"), "\(down.stdout)")
        #expect(down.stderr.contains("warning") && down.stderr.contains("installed"), "\(down.stderr)")

        // The repository offers a newer version whose language model does not match its checksum.
        let manifestURL = repository.appendingPathComponent("manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var models = try #require(manifest["models"] as? [[String: Any]])
        let english = try #require(models.firstIndex { $0["identifier"] as? String == "en-US" })
        models[english]["version"] = "99.0.0"
        var files = try #require(models[english]["files"] as? [[String: Any]])
        let lm = try #require(files.firstIndex { $0["path"] as? String == "en-US/lm.bin" })
        files[lm]["sha256"] = String(repeating: "ab", count: 32)
        models[english]["files"] = files
        manifest["models"] = models
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let broken = try await CLI.run(["recognize", "Samples/hello.json", "--repository", repository.absoluteString, "--storage", storage.path])
        #expect(broken.status == 0, "\(broken.stderr)")
        #expect(broken.stdout.hasPrefix("Samples/hello.json: hello"), "\(broken.stdout)")
        #expect(broken.stderr.contains("warning: the update failed"), "\(broken.stderr)")
    }
}
