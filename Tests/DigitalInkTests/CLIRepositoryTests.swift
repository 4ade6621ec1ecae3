import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `inkrec models … --repository URL` against a loopback HTTP repository (fake model files: these
/// tests install and list, they do not recognize).
@Suite("inkrec with a remote repository", .serialized)
struct CLIRepositoryTests {
    @Test("download installs from the server with progress on stderr; list shows it; a failed download keeps it")
    func downloadListAndFailure() async throws {
        let fixture = try ModelTestFixture()
        let repo = fixture.server.baseURL.absoluteString
        let storage = fixture.storageDirectory.path

        let download = try await CLI.run(["models", "download", "--repository", repo, "--storage", storage, "--language", "en"])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(download.stdout.contains("installed en-US 1.0.0"), "\(download.stdout)")
        // Not a terminal: one progress line per change, ending at 100 %.
        let progress = download.stderr.split(separator: "\n").filter { $0.hasSuffix("%") }
        #expect(!progress.isEmpty, "\(download.stderr)")
        #expect(progress.last?.hasSuffix("100%") == true, "\(download.stderr)")
        #expect(fixture.server.requests(for: ModelManifest.fileName).count >= 1)
        #expect(fixture.incompleteFiles().isEmpty)

        let list = try await CLI.run(["models", "list", "--repository", repo, "--storage", storage])
        #expect(list.status == 0, "\(list.stderr)")
        let english = list.stdout.split(separator: "\n").first { $0.hasPrefix("en-US") }
        #expect(english?.contains("installed 1.0.0") == true, "\(list.stdout)")
        let french = list.stdout.split(separator: "\n").first { $0.hasPrefix("fr-FR") }
        #expect(french?.contains("not installed") == true, "\(list.stdout)")

        // The server now fails every file of fr-FR: a clear error, exit 1, and en-US still installed.
        fixture.server.setBehavior(.status(500), for: "fr-FR/config.json")
        fixture.server.setBehavior(.status(500), for: "fr-FR/lm.bin")
        let failed = try await CLI.run(["models", "download", "--repository", repo, "--storage", storage, "--language", "fr"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("500"), "\(failed.stderr)")
        let after = try await CLI.run(["models", "list", "--repository", repo, "--storage", storage])
        #expect(after.stdout.split(separator: "\n").first { $0.hasPrefix("en-US") }?.contains("installed 1.0.0") == true)
        #expect(after.stdout.split(separator: "\n").first { $0.hasPrefix("fr-FR") }?.contains("not installed") == true)
    }

    @Test("list shows a network shared by two models once; download says when a damaged shared file is fetched again")
    func sharedNetwork() async throws {
        let fixture = try ModelTestFixture(models: SharedNetworkFixture.specs())
        let repo = fixture.server.baseURL.absoluteString
        let storage = fixture.storageDirectory.path
        let lines = { (run: InkRecRun) in run.stdout.split(separator: "\n").map(String.init) }

        let list = try await CLI.run(["models", "list", "--repository", repo, "--storage", storage])
        #expect(list.status == 0, "\(list.stderr)")
        let german = lines(list).first { $0.hasPrefix("de-DE") }
        #expect(german?.contains("kB shared") == true, "\(list.stdout)")
        let shared = lines(list).filter { $0.hasPrefix("shared:") }
        #expect(shared.count == 1, "\(list.stdout)")
        #expect(shared.first?.contains("\(SharedNetworkFixture.sharedPath)  15.9 kB, used by 2 models (de-DE, fr-FR)  not installed") == true, "\(list.stdout)")

        let de = try await CLI.run(["models", "download", "--repository", repo, "--storage", storage, "--language", "de"])
        #expect(de.status == 0, "\(de.stderr)")
        let installed = try await CLI.run(["models", "list", "--repository", repo, "--storage", storage])
        #expect(lines(installed).first { $0.hasPrefix("shared:") }?.hasSuffix("  installed") == true, "\(installed.stdout)")

        let blob = fixture.storageDirectory.appendingPathComponent("blobs/\(FileDigest(of: SharedNetworkFixture.weights).sha256)")
        try SharedNetworkFixture.damage(blob)
        let fr = try await CLI.run(["models", "download", "--repository", repo, "--storage", storage, "--language", "fr"])
        #expect(fr.status == 0, "\(fr.stderr)")
        #expect(fr.stderr.contains("warning: the stored copy of \(SharedNetworkFixture.sharedPath) is damaged"), "\(fr.stderr)")
        #expect(fixture.server.requests(for: SharedNetworkFixture.sharedPath).count == 2)

        let status = try await CLI.run(["models", "status", "--storage", storage])
        #expect(status.stdout.contains("(shared files counted once)"), "\(status.stdout)")

        // An exported repository keeps the layout: the network once, beside both model folders.
        let out = fixture.root.appendingPathComponent("exported")
        let export = try await CLI.run(["models", "export", "--repository", repo, "--storage", storage,
                                        "--models", "de", "fr", "--output", out.path])
        #expect(export.status == 0, "\(export.stderr)")
        let manifest = try ModelManifest(contentsOf: out.appendingPathComponent(ModelManifest.fileName))
        #expect(manifest.sharedFiles.map(\.file.path) == [SharedNetworkFixture.sharedPath])
        #expect(try Data(contentsOf: out.appendingPathComponent(SharedNetworkFixture.sharedPath)) == SharedNetworkFixture.weights)
        let recognized = try await CLI.run(["recognize", "--model-directory", out.appendingPathComponent("fr-FR").path, "Samples/hello.json"])
        #expect(recognized.status == 0, "\(recognized.stderr)")
    }

    @Test("an unreachable repository or a repository that is not a URL is an error, not a crash")
    func badRepositories() async throws {
        let storage = try CLI.temporaryDirectory().path
        let url = "http://127.0.0.1:1/"  // nothing listens there (a stopped test server's port may be taken again)
        let unreachable = try await CLI.run(["models", "list", "--repository", url, "--storage", storage])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("error"), "\(unreachable.stderr)")
        let notURL = try await CLI.run(["models", "list", "--repository", "no scheme here", "--storage", storage])
        #expect(notURL.status != 0)
        #expect(notURL.stderr.contains("not a URL"), "\(notURL.stderr)")
    }
}
