import DigitalInk
import Foundation
import HTTPTypes
import Hummingbird

/// The HTTP API of DigitalInk on Hummingbird 2 (see `Server/README.md` and `Server/openapi.yaml`):
///
/// - `POST /v1/recognize`: one ink in the project's JSON format, plus `language`, `preContext`,
///   `postContext`, `maxResultCount`, `page`, `charset`, `vocabulary`, `strict` → the JSON of
///   `inkrec recognize --format json`;
/// - `GET /v1/models`: the repository's models and the loaded ones;
/// - `GET /healthz`.
///
/// Errors are JSON (``ServerError``): 400 bad ink or option (naming the field), 404 unknown model,
/// 413 body or ink too large, 415 not JSON, 503 model not installed or still loading.
public enum InkServer {
    /// The application for `options`, with its models loaded (those that fail to load are reported
    /// on standard error and answered with 503).
    public static func application(_ options: ServerOptions) async throws -> some ApplicationProtocol {
        let pool = RecognizerPool(manager: ModelManager(repository: options.repository, storageDirectory: options.storage))
        for tag in options.languages {
            do { try await pool.load(tag) } catch {
                FileHandle.standardError.write(Data("warning: cannot load \(tag): \(error)\n".utf8))
            }
        }
        return Application(router: router(options, pool: pool),
                           configuration: .init(address: .hostname(options.host, port: options.port), serverName: "inkrec-serve"))
    }

    static func router(_ options: ServerOptions, pool: RecognizerPool) -> Router<BasicRequestContext> {
        let router = Router()
        let profiles = WriterProfileCache()
        router.get("/healthz") { _, _ in json(["status": "ok"]) }
        router.get("/v1/models") { _, _ in
            let manifest = try await pool.repositoryManifest()
            let loaded = await pool.loadedTags
            let installed = pool.manager.installedModels().map { m -> [String: Any] in
                ["identifier": m.model.modelIdentifier.languageTag, "version": m.version]
            }
            return json(["repository": manifest.models.map { m -> [String: Any] in
                             ["identifier": m.identifier.languageTag, "version": m.version, "kind": m.kind.rawValue,
                              "loaded": loaded.contains(m.identifier.languageTag)]
                         },
                         "installed": installed, "loaded": loaded])
        }
        router.post("/v1/recognize") { request, context in
            try await recognize(request, context: context, options: options, pool: pool, profiles: profiles)
        }
        router.get("/") { _, _ in try page("index.html", type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in try page("app.js", type: "text/javascript; charset=utf-8") }
        return router
    }

    static func recognize(_ request: Request, context: BasicRequestContext, options: ServerOptions,
                          pool: RecognizerPool, profiles: WriterProfileCache? = nil) async throws -> Response {
        let type = request.headers[.contentType] ?? ""
        guard type.lowercased().hasPrefix("application/json") else {
            throw ServerError(.unsupportedMediaType, "the body must be JSON (Content-Type: application/json), not \"\(type)\"")
        }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: options.maxBodyBytes) } catch {
            throw ServerError(.contentTooLarge, "the body is larger than \(options.maxBodyBytes) bytes")
        }
        let data = Data(buffer: buffer)
        let request = try RecognizeRequest(data, options: options, profiles: profiles)
        let id = try await pool.identifier(for: request.language)
        let recognizer = try request.recognizer(from: try await pool.loadedRecognizer(id))
        do {
            var answer: [String: Any]
            if request.page {
                answer = RecognitionJSON.page(try await recognizer.recognizePage(request.document.ink, context: request.context))
            } else {
                answer = RecognitionJSON.result(try await recognizer.recognize(request.document.ink, context: request.context))
            }
            if let inkID = request.document.id { answer["id"] = inkID }
            return json(answer)
        } catch let error as DigitalInkError {
            switch error {
            case .invalidOption(let name, _): throw ServerError(.badRequest, "\(error)", field: name)
            case .invalidInk: throw ServerError(.badRequest, "\(error)", field: "strokes")
            default: throw ServerError(.internalServerError, "\(error)")
            }
        }  // CancellationError (the request's task was cancelled: the client left) goes up as it is
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: RecognitionJSON.line(object))))
    }

    static func page(_ name: String, type: String) throws -> Response {
        guard let url = Bundle.module.url(forResource: "Page/\(name)", withExtension: nil), let data = try? Data(contentsOf: url) else {
            throw ServerError(.notFound, "no \(name)")
        }
        return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
