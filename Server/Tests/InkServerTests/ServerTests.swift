@_spi(Engine) import DigitalInk
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import InkServer

/// The repository root (Server/Tests/InkServerTests/ServerTests.swift → ../../..).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

func sampleBody(_ name: String, extra: [String: Any] = [:]) throws -> ByteBuffer {
    var o = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("Samples/\(name)"))) as! [String: Any]
    for (k, v) in extra { o[k] = v }
    return ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: o))
}

func object(_ buffer: ByteBuffer) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(buffer: buffer))) as? [String: Any] ?? [:]
}

let json: HTTPFields = [.contentType: "application/json"]

@Suite("inkrec-serve: the HTTP API", .serialized)
struct ServerTests {
    static func options(languages: [String] = ["en-US"]) -> ServerOptions {
        var o = ServerOptions()
        o.languages = languages
        o.storage = FileManager.default.temporaryDirectory.appendingPathComponent("inkserver-\(UUID().uuidString)")
        o.repository = .directory(root.appendingPathComponent("Models"))
        return o
    }

    @Test("health, models, the page")
    func basics() async throws {
        let app = try await InkServer.application(Self.options())
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { r in
                #expect(r.status == .ok)
                #expect(object(r.body)["status"] as? String == "ok")
            }
            try await client.execute(uri: "/v1/models", method: .get) { r in
                #expect(r.status == .ok)
                let o = object(r.body)
                #expect(o["loaded"] as? [String] == ["en-US"])
                #expect((o["installed"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String } == ["en-US"])
                let ids = (o["repository"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
                #expect(ids.contains("en-US") && ids.contains("zxx-Zsym-x-shapes"))
            }
            try await client.execute(uri: "/", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body).contains("<canvas id=\"pad\""))
            }
            try await client.execute(uri: "/app.js", method: .get) { r in
                #expect(r.status == .ok && String(buffer: r.body).contains("/v1/recognize"))
            }
        }
    }

    @Test("POST /v1/recognize answers what inkrec recognize --format json answers")
    func recognize() async throws {
        let app = try await InkServer.application(Self.options())
        let doc = try InkDocument.read(contentsOf: root.appendingPathComponent("Samples/hello.json"))
        // As many results as the server gives by default (5): the beam threshold keeps at least as many prefixes as
        // results are asked for, so 10 could differ from 5 in the last digits of a score.
        var directOptions = DigitalInkRecognizerOptions(modelDirectory: root.appendingPathComponent("Models/en-US"))
        directOptions.maxResultCount = 5
        let direct = try await DigitalInkRecognizer(options: directOptions).recognize(doc.ink, context: doc.context)
        let expected = Array(direct.candidates.prefix(5))
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: try sampleBody("hello.json")) { r in
                #expect(r.status == .ok)
                let o = object(r.body)
                let candidates = o["candidates"] as? [[String: Any]] ?? []
                #expect(candidates.first?["text"] as? String == "hello")
                #expect(candidates.count == 5)
                // The same JSON as the library's (and so the CLI's) for the same candidates.
                let mine = RecognitionJSON.line(["candidates": expected.map(RecognitionJSON.candidate)])
                let theirs = RecognitionJSON.line(["candidates": candidates])
                #expect(mine == theirs)
                #expect(o["id"] as? String == doc.id)
            }
            // Hints per request, on the same loaded model.
            let hinted = try sampleBody("hello.json", extra: ["charset": "0123456789", "maxResultCount": 2])
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: hinted) { r in
                #expect(r.status == .ok)
                let texts = (object(r.body)["candidates"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                #expect(texts.count <= 2 && texts.allSatisfy { $0.allSatisfy(\.isNumber) })
            }
            let strict = try sampleBody("there.json", extra: ["vocabulary": ["open", "close"], "strict": true])
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: strict) { r in
                let texts = (object(r.body)["candidates"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                #expect(!texts.isEmpty && texts.allSatisfy { ["open", "close"].contains($0) })
            }
            let page = try sampleBody("page.json", extra: ["page": true])
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: page) { r in
                #expect(r.status == .ok)
                let lines = object(r.body)["lines"] as? [[String: Any]] ?? []
                #expect(lines.count > 1)
                // Each line says the direction it was read in: en-US is written left to right.
                #expect(lines.allSatisfy { $0["direction"] as? String == "ltr" }, "\(lines.map { $0["direction"] ?? "none" })")
            }
        }
    }

    @Test("bad requests get their documented status and a message; the server keeps serving")
    func errors() async throws {
        var options = Self.options()
        options.maxBodyBytes = 64 << 10
        let app = try await InkServer.application(options)
        try await app.test(.router) { client in
            func expect(_ body: ByteBuffer, headers: HTTPFields = json, _ status: HTTPResponse.Status, field: String? = nil,
                        _ words: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                try await client.execute(uri: "/v1/recognize", method: .post, headers: headers, body: body) { r in
                    #expect(r.status == status, sourceLocation: sourceLocation)
                    let o = object(r.body)
                    #expect((o["error"] as? String ?? "").contains(words), "\(o)", sourceLocation: sourceLocation)
                    #expect(o["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
                    if let field { #expect(o["field"] as? String == field, sourceLocation: sourceLocation) }
                }
            }
            try await expect(ByteBuffer(string: "{\"strokes\": [[[0,0],"), .badRequest, "not a JSON object")
            try await expect(ByteBuffer(string: "{\"strokes\": 5}"), .badRequest, field: "strokes", "strokes")
            try await expect(try sampleBody("hello.json"), headers: [.contentType: "text/plain"], .unsupportedMediaType, "Content-Type")
            try await expect(ByteBuffer(repeating: UInt8(ascii: " "), count: 100 << 10), .contentTooLarge, "larger than")
            try await expect(try sampleBody("hello.json", extra: ["language": "tlh"]), .notFound, field: "language", "no model")
            try await expect(try sampleBody("hello.json", extra: ["language": "zxx-Zsym-x-shapes"]), .serviceUnavailable, "not installed")
            try await expect(try sampleBody("hello.json", extra: ["maxResultCount": "five"]), .badRequest, field: "maxResultCount", "maxResultCount must be")
            try await expect(try sampleBody("hello.json", extra: ["strict": true]), .badRequest, field: "strict", "vocabulary")
            try await expect(try sampleBody("hello.json", extra: ["charset": ""]), .badRequest, field: "charset", "empty")
            try await expect(try sampleBody("hello.json", extra: ["writingArea": ["width": 1, "height": 1e-30]]), .badRequest, field: "strokes", "too long")
            // Still serving.
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: try sampleBody("hello.json")) { r in
                #expect(r.status == .ok)
            }
        }
    }

    @Test("a writerProfile (base64) is applied; a damaged, oversized or foreign one is refused naming the field")
    func writerProfile() async throws {
        let app = try await InkServer.application(Self.options())
        let english = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: root.appendingPathComponent("Models/en-US")))
        let profile = try await WriterProfile(for: english, minimumPairs: 0, adapting: nil, steps: 4)  // few steps: a debug build
        let doc = try InkDocument.read(contentsOf: root.appendingPathComponent("Samples/hello.json"))
        try await profile.learn(from: [(doc.ink, "hello")])
        let russian = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: root.appendingPathComponent("Models/ru")))
        let foreign = try await WriterProfile(for: russian)
        try await app.test(.router) { client in
            var plain: Double?
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: try sampleBody("hello.json")) { r in
                plain = ((object(r.body)["candidates"] as? [[String: Any]])?.first?["score"] as? Double)
            }
            let body = try sampleBody("hello.json", extra: ["writerProfile": profile.data().base64EncodedString()])
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: body) { r in
                #expect(r.status == .ok)
                let best = (object(r.body)["candidates"] as? [[String: Any]])?.first
                #expect(best?["text"] as? String == "hello")
                #expect(best?["score"] as? Double != plain)
            }
            for (value, status, words) in [("not base64!", HTTPResponse.Status.badRequest, "base64"),
                                           (Data(repeating: 1, count: 100).base64EncodedString(), .badRequest, "writer profile"),
                                           (String(repeating: "A", count: 400_000), .contentTooLarge, "at most"),
                                           (foreign.data().base64EncodedString(), .badRequest, "another network")] {
                try await client.execute(uri: "/v1/recognize", method: .post, headers: json,
                                         body: try sampleBody("hello.json", extra: ["writerProfile": value])) { r in
                    #expect(r.status == status, "\(words)")
                    let o = object(r.body)
                    #expect(o["field"] as? String == "writerProfile" && (o["error"] as? String ?? "").contains(words), "\(o)")
                }
            }
        }
    }

    @Test("the same profile bytes in two requests are read (and folded into a network) once; the oldest leaves first")
    func profileCache() async throws {
        let english = DigitalInkRecognizer(options: DigitalInkRecognizerOptions(modelDirectory: root.appendingPathComponent("Models/en-US")))
        let a = try await WriterProfile(for: english, minimumPairs: 0, adapting: .head).data()
        let b = try await WriterProfile(for: english, minimumPairs: 1, adapting: .head).data()
        let c = try await WriterProfile(for: english, minimumPairs: 2, adapting: .head).data()
        let cache = WriterProfileCache(capacity: 2)
        let first = try cache.profile(a)
        let again = try cache.profile(a)
        #expect(again === first && cache.count == 1)
        _ = try cache.profile(b)
        _ = try cache.profile(c)  // a leaves
        let back = try cache.profile(a)
        #expect(back !== first)
        #expect(throws: DigitalInkError.self) { _ = try cache.profile(Data(repeating: 1, count: 100)) }
        #expect(cache.count == 2)
    }

    @Test("an ink over the point limit is refused before recognition")
    func pointLimit() async throws {
        var options = Self.options()
        options.maxPoints = 10
        let app = try await InkServer.application(options)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/recognize", method: .post, headers: json, body: try sampleBody("hello.json")) { r in
                #expect(r.status == .contentTooLarge)
                #expect(object(r.body)["field"] as? String == "strokes")
            }
        }
    }
}
