import Foundation
import Testing
import DigitalInk

/// `inkrec adapt` and `inkrec recognize --profile`: a profile file learned from pairs, applied, refused when
/// damaged or made for another network.
@Suite("inkrec adapt writes a profile that recognize --profile applies", .serialized)
struct CLIAdaptTests {
    /// The recorded samples as pairs (their labels as "text").
    static func pairs() throws -> Data {
        var lines: [String] = []
        for name in ["hello.json", "there.json", "argument.json"] {
            var o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.samples.appendingPathComponent(name))) as? [String: Any])
            o["text"] = o.removeValue(forKey: "label")
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: o), as: UTF8.self))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    static let english = Fixtures.modelsDirectory.appendingPathComponent("en-US").path
    static let samples = Fixtures.modelsDirectory.deletingLastPathComponent().appendingPathComponent("Samples")

    @Test("adapt, then recognize --profile (one file and --batch): the samples still read, the scores change")
    func adaptAndRecognize() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkrec-adapt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = dir.appendingPathComponent("me.bin").path
        // Few steps: the debug build learns slowly; how much a profile helps is the evaluation's matter.
        let a = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", profile,
                                   "--minimum-pairs", "0", "--steps", "8"], stdin: try Self.pairs())
        #expect(a.status == 0, "\(a.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: profile)[.size] as? Int)
        #expect(size > 0 && size <= WriterProfile.maxDataSize)
        let hello = Self.samples.appendingPathComponent("hello.json").path
        let plain = try await CLI.run(["recognize", hello, "--model-directory", Self.english, "--format", "json"])
        let adapted = try await CLI.run(["recognize", hello, "--model-directory", Self.english, "--format", "json", "--profile", profile])
        #expect(adapted.status == 0, "\(adapted.stderr)")
        func best(_ out: String) throws -> (String?, Double?) {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            let first = (o["candidates"] as? [[String: Any]])?.first
            return (first?["text"] as? String, first?["score"] as? Double)
        }
        #expect(try best(adapted.stdout).0 == "hello")
        #expect(try best(adapted.stdout).1 != best(plain.stdout).1)
        let batch = try await CLI.run(["recognize", "--batch", "-", "--model-directory", Self.english, "--profile", profile],
                                      stdin: try Self.pairs())
        #expect(batch.status == 0 && batch.stdout.split(separator: "\n").count == 3, "\(batch.stderr)")
        // Learning on from the saved profile counts every pair.
        let again = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", profile,
                                       "--profile", profile, "--steps", "2"], stdin: try Self.pairs())
        #expect(again.status == 0 && again.stderr.contains("(6 in all)"), "\(again.stderr)")
        // A profile saved once it had its minimum of pairs (3 here), restored: fewer new pairs than that leave it as it
        // was, and say so; as many learn on.
        let waiting = dir.appendingPathComponent("waiting.bin").path
        let w1 = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", waiting,
                                    "--minimum-pairs", "3", "--steps", "2"], stdin: try Self.pairs())
        #expect(w1.status == 0, "\(w1.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: waiting))
        let two = Data((String(decoding: try Self.pairs(), as: UTF8.self).split(separator: "\n").prefix(2).joined(separator: "\n") + "\n").utf8)
        let w2 = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", waiting,
                                    "--profile", waiting, "--steps", "2"], stdin: two)
        #expect(w2.status == 0 && w2.stderr.contains("unchanged") && w2.stderr.contains("3 new pairs at once, 2 given"), "\(w2.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: waiting)) == before)
        let w3 = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", waiting,
                                    "--profile", waiting, "--steps", "2"], stdin: try Self.pairs())
        #expect(w3.status == 0 && w3.stderr.contains("(6 in all)"), "\(w3.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: waiting)) != before)
        // The output layer alone (a version-1 profile) on request; not for an earlier profile, which keeps its kind.
        let head = dir.appendingPathComponent("head.bin").path
        let h = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", head, "--adapt", "head"],
                                  stdin: try Self.pairs())
        #expect(try h.status == 0 && (FileManager.default.attributesOfItem(atPath: head)[.size] as? Int) == 15_604, "\(h.stderr)")
        let both = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", head, "--adapt", "head",
                                      "--profile", head], stdin: try Self.pairs())
        #expect(both.status != 0 && both.stderr.contains("--adapt"), "\(both.stderr)")
        // --seed (hidden, for the evaluation): another start and order, so other bytes; not for an earlier profile.
        let seeded = dir.appendingPathComponent("seeded.bin").path
        let s = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", seeded,
                                   "--minimum-pairs", "0", "--steps", "8", "--seed", "7"], stdin: try Self.pairs())
        #expect(s.status == 0, "\(s.stderr)")
        let first = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", head,
                                       "--minimum-pairs", "0", "--steps", "8"], stdin: try Self.pairs())
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: seeded)) != Data(contentsOf: URL(fileURLWithPath: head)))
        let seededOn = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", seeded,
                                          "--profile", seeded, "--seed", "7"], stdin: try Self.pairs())
        #expect(seededOn.status != 0 && seededOn.stderr.contains("--seed"), "\(seededOn.stderr)")
    }

    @Test("--pairs-per-call learns in calls of that many pairs, as an app that learns after every correction: every pair counts, each call learns on from the last; 0 is refused")
    func pairsPerCall() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkrec-adapt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func adapt(_ name: String, _ extra: [String]) async throws -> (status: Int32, stderr: String, data: Data?) {
            let path = dir.appendingPathComponent(name).path
            let r = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", path,
                                       "--minimum-pairs", "0", "--steps", "2", "--check-steps", "0"] + extra, stdin: try Self.pairs())
            return (r.status, r.stderr, try? Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let once = try await adapt("once.bin", [])
        let each = try await adapt("each.bin", ["--pairs-per-call", "1"])
        let all = try await adapt("all.bin", ["--pairs-per-call", "3"])
        #expect(once.status == 0 && each.status == 0 && all.status == 0, "\(each.stderr)")
        #expect(each.stderr.contains("learned from 3 pairs") && each.stderr.contains("(3 in all)"), "\(each.stderr)")
        #expect(all.data == once.data, "calls of all three pairs: the one call")
        #expect(each.data != once.data, "three calls of one pair: 3 × 2 steps from where the last call left it")
        let refused = try await adapt("zero.bin", ["--pairs-per-call", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--pairs-per-call"), "\(refused.stderr)")
    }

    @Test("a damaged profile, one for another network, a pair without text: a message and exit status 1")
    func refusals() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkrec-adapt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let hello = Self.samples.appendingPathComponent("hello.json").path
        let damaged = dir.appendingPathComponent("damaged.bin")
        try Data(repeating: 7, count: 300).write(to: damaged)
        let r1 = try await CLI.run(["recognize", hello, "--model-directory", Self.english, "--profile", damaged.path])
        #expect(r1.status == 1 && r1.stderr.contains("writer profile"), "\(r1.stderr)")
        let profile = dir.appendingPathComponent("me.bin").path
        _ = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", profile, "--steps", "1"],
                              stdin: try Self.pairs())
        let russian = Fixtures.modelsDirectory.appendingPathComponent("ru").path
        let r2 = try await CLI.run(["recognize", hello, "--model-directory", russian, "--profile", profile])
        #expect(r2.status == 1 && r2.stderr.contains("another network"), "\(r2.stderr)")
        let r3 = try await CLI.run(["adapt", "--model-directory", Self.english, "--pairs", "-", "--output", profile],
                                   stdin: Data((#"{"strokes": [[[1, 2], [3, 4]]]}"# + "\n").utf8))
        #expect(r3.status == 1 && r3.stderr.contains("line 1"), "\(r3.stderr)")
    }

    @Test("--suggest-language names the model beside it whose LM fits the texts clearly better, and only one of the same network")
    func suggestLanguage() async throws {
        // A models folder of en-US, de, ru and the Latin network's shared folder (links to the shipped ones).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkrec-suggest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["en-US", "de", "ru", "latn-bilstm96x3", "cyrl-bilstm96x3"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name),
                                                       withDestinationURL: Fixtures.modelsDirectory.appendingPathComponent(name))
        }
        // The samples' inks with German texts (what is learned does not matter here: two steps).
        func pairs(_ texts: [String]) throws -> Data {
            var lines: [String] = []
            for (i, text) in texts.enumerated() {
                let name = ["hello.json", "there.json", "argument.json"][i % 3]
                var o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.samples.appendingPathComponent(name))) as? [String: Any])
                o["label"] = nil
                o["text"] = text
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: o), as: UTF8.self))
            }
            return Data((lines.joined(separator: "\n") + "\n").utf8)
        }
        let profile = dir.appendingPathComponent("p.bin").path
        let english = dir.appendingPathComponent("en-US").path
        let german = try await CLI.run(["adapt", "--model-directory", english, "--pairs", "-", "--output", profile, "--steps", "2",
                                        "--suggest-language"], stdin: try pairs(WriterLanguageTests.german))
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stderr.contains("read as de (") && german.stderr.contains("--model-directory \(dir.appendingPathComponent("de").path)"),
                "\(german.stderr)")
        let plain = try await CLI.run(["adapt", "--model-directory", english, "--pairs", "-", "--output", profile, "--steps", "2",
                                       "--suggest-language"], stdin: try pairs(WriterLanguageTests.english))
        #expect(plain.status == 0 && plain.stderr.contains("language: en-US fits") && plain.stderr.contains("no other of the 1 models"),
                "\(plain.stderr)")
        // --follow-language also checks the profile through the model it names (six pairs: five runs).
        let followed = try await CLI.run(["adapt", "--model-directory", english, "--pairs", "-", "--output", profile, "--steps", "2",
                                          "--minimum-pairs", "0", "--check-steps", "1", "--follow-language"],
                                         stdin: try pairs(WriterLanguageTests.german))
        #expect(followed.status == 0 && followed.stderr.contains("check through de: 6 confirmed pairs (25 words)")
                    && followed.stderr.contains("read as de ("), "\(followed.stderr)")
        // The profile learned against en-US applies to de as it is (the same network).
        let hello = Self.samples.appendingPathComponent("hello.json").path
        let r = try await CLI.run(["recognize", hello, "--model-directory", dir.appendingPathComponent("de").path, "--profile", profile])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
