import Foundation
import Testing
@_spi(Engine) @testable import DigitalInk

/// `Package.swift`'s list of model resources, the folders in `Models/` and `Models/manifest.json`
/// describe the same models: a model added to one and forgotten in another fails here, not in an
/// app that bundles `DigitalInkModels`.
@Suite("Models/manifest.json, Models/ and Package.swift agree")
struct ManifestPackageTests {
    static let root = Fixtures.modelsDirectory.deletingLastPathComponent()

    /// The `.copy("…")` resources of the DigitalInkModels target in Package.swift.
    static func packageResources() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try #require(text.range(of: "name: \"DigitalInkModels\""))
        let rest = text[target.upperBound...]
        let list = try #require(rest.range(of: "resources: ["))
        let end = try #require(rest[list.upperBound...].range(of: "]"))
        let body = rest[list.upperBound..<end.lowerBound]
        let regex = try NSRegularExpression(pattern: #"\.copy\("([^"]+)"\)"#)
        let ns = String(body)
        return Set(regex.matches(in: ns, range: NSRange(ns.startIndex..., in: ns)).map {
            String(ns[Range($0.range(at: 1), in: ns)!])
        })
    }

    @Test("every folder the manifest's files live in is a resource of DigitalInkModels, and every resource is in the manifest")
    func resourcesMatchManifest() throws {
        let manifest = try ModelManifest(contentsOf: Fixtures.modelsDirectory.appendingPathComponent(ModelManifest.fileName))
        let folders = Set(manifest.models.flatMap { $0.files.map { String($0.path.split(separator: "/")[0]) } })
        let resources = try Self.packageResources()
        #expect(resources.count > 10)
        #expect(resources == folders.union([ModelManifest.fileName]),
                "only in Package.swift: \(resources.subtracting(folders).subtracting([ModelManifest.fileName]).sorted()); only in the manifest: \(folders.subtracting(resources).sorted())")
        // Models/ holds exactly those folders (and the Swift source of the target).
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: Fixtures.modelsDirectory.path))
            .subtracting(["Swift", ".DS_Store"])
        #expect(onDisk == resources, "on disk, not listed: \(onDisk.subtracting(resources).sorted())")
    }

    @Test("the identifier constants name shipped models, and the unavailable ones do not")
    func knownIdentifiers() throws {
        let manifest = try ModelManifest(contentsOf: Fixtures.modelsDirectory.appendingPathComponent(ModelManifest.fileName))
        let shipped = Set(manifest.models.map(\.identifier.languageTag))
        #expect(shipped.contains(DigitalInkRecognitionModelIdentifier.shapes.languageTag))
        // `.emoji` and `.autodraw` are unavailable until such models ship: when one does, make its constant available.
        for tag in ["zxx-Zsye-x-emoji", "zxx-Zsym-x-autodraw"] { #expect(!shipped.contains(tag), "\(tag) ships now") }
        // The doc comment of DigitalInkModels counts the models it ships.
        let doc = try String(contentsOf: Fixtures.modelsDirectory.appendingPathComponent("Swift/DigitalInkModels.swift"), encoding: .utf8)
        #expect(doc.contains("model in `Models/manifest.json` (\(shipped.count) models"), "DigitalInkModels.swift's description")
    }
}
