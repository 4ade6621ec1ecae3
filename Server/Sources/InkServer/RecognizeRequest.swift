import DigitalInk
import Foundation

/// The body of `POST /v1/recognize`: an ink in the project's JSON format (`strokes`, `writingArea`,
/// `preContext`, `id`) and the recognition options beside it (`writerProfile`: a profile's bytes in base64). Every problem is a 400 naming its field
/// (or a 413 for an ink over the server's limits).
struct RecognizeRequest {
    var document: InkDocument
    var language = "en-US"
    var context = RecognitionContext()
    var page = false
    var maxResultCount = 5
    var charset: String?
    var vocabulary: [String]?
    var strict = false
    /// The writer's profile (`inkrec adapt`, ``WriterProfile/data()``), sent base64-encoded.
    var writerProfile: WriterProfile?

    /// The options beside the ink (every one optional).
    struct Fields: Decodable {
        var language: String?
        var postContext: String?
        var page: Bool?
        var strict: Bool?
        var charset: String?
        var maxResultCount: Int?
        var vocabulary: [String]?
        var writerProfile: String?
    }

    init(_ data: Data, options: ServerOptions, profiles: WriterProfileCache? = nil) throws {
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: data) } catch let error as DecodingError {
            let (path, what): ([any CodingKey], String) = switch error {
            case .typeMismatch(let type, let c): (c.codingPath, "must be a \(type == [String].self ? "list of strings" : "\(type)".lowercased())")
            case .valueNotFound(_, let c), .dataCorrupted(let c): (c.codingPath, c.debugDescription)
            case .keyNotFound(let key, let c): (c.codingPath + [key], "is missing")
            @unknown default: ([], "\(error)")
            }
            // Nothing to point at (malformed JSON, or an array or a string): the body itself.
            guard let field = path.first?.stringValue else { throw ServerError(.badRequest, "the body is not a JSON object") }
            throw ServerError(.badRequest, "\(field) \(what)", field: field)
        }
        do { document = try InkDocument(jsonData: data, source: "body") } catch {
            throw ServerError(.badRequest, "\(error)", field: "strokes")
        }
        let strokes = document.ink.strokes
        guard strokes.count <= options.maxStrokes else {
            throw ServerError(.contentTooLarge, "\(strokes.count) strokes; at most \(options.maxStrokes)", field: "strokes")
        }
        let points = strokes.reduce(0) { $0 + $1.points.count }
        guard points <= options.maxPoints else {
            throw ServerError(.contentTooLarge, "\(points) points; at most \(options.maxPoints)", field: "strokes")
        }
        language = fields.language ?? language
        context = document.context
        context.postContext = fields.postContext ?? ""
        page = fields.page ?? false
        strict = fields.strict ?? false
        charset = fields.charset
        vocabulary = fields.vocabulary
        if let n = fields.maxResultCount {
            guard (1...DigitalInkRecognizerOptions.maxResultLimit).contains(n) else {
                throw ServerError(.badRequest, "maxResultCount must be an integer in 1...\(DigitalInkRecognizerOptions.maxResultLimit)",
                                  field: "maxResultCount")
            }
            maxResultCount = n
        }
        if strict && vocabulary == nil { throw ServerError(.badRequest, "strict needs a vocabulary", field: "strict") }
        if let encoded = fields.writerProfile {
            // Base64 of at most WriterProfile.maxDataSize bytes, checked before decoding.
            let limit = (WriterProfile.maxDataSize + 2) / 3 * 4
            guard encoded.utf8.count <= limit else {
                throw ServerError(.contentTooLarge, "writerProfile is \(encoded.utf8.count) base64 characters; a profile is at most \(WriterProfile.maxDataSize) bytes (\(limit) characters)",
                                  field: "writerProfile")
            }
            guard let bytes = Data(base64Encoded: encoded) else {
                throw ServerError(.badRequest, "writerProfile must be base64", field: "writerProfile")
            }
            do { writerProfile = try profiles?.profile(bytes) ?? WriterProfile(data: bytes) } catch {
                throw ServerError(.badRequest, "\(error)", field: "writerProfile")
            }
        }
    }

    /// The recognizer for this request: `base`'s model with this request's settings.
    func recognizer(from base: DigitalInkRecognizer) throws -> DigitalInkRecognizer {
        var vocabulary: RecognitionVocabulary? = nil
        if let list = self.vocabulary {
            do { vocabulary = try RecognitionVocabulary(list, strict: strict) } catch {
                throw ServerError(.badRequest, "\(error)", field: "vocabulary")
            }
        }
        let recognizer = base.withOptions {
            $0.maxResultCount = maxResultCount
            $0.allowedCharacters = charset.map(Set.init)
            $0.vocabulary = vocabulary
            $0.writerProfile = writerProfile
        }
        do { try recognizer.options.validate() } catch {
            let field = switch error { case .invalidOption(let name, _): name; default: "options" }
            throw ServerError(.badRequest, "\(error)", field: field == "allowedCharacters" ? "charset" : field)
        }
        return recognizer
    }
}
