import Foundation
import HTTPTypes
import Hummingbird

/// An error answered as `{"error": message, "status": code}` (and `"field"` when one field is at fault)
/// with the HTTP status a client expects.
public struct ServerError: HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    public let field: String?

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    public var description: String { "\(status.code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var o: [String: Any] = ["error": message, "status": status.code]
        if let field { o["field"] = field }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
