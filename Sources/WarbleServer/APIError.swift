import Foundation
import Hummingbird

/// An error answered in OpenAI's shape: `{"error": {"message", "type", "param", "code"}}` with its status.
public struct APIError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    /// OpenAI's error type, e.g. "invalid_request_error", "server_error".
    public let type: String
    /// The request field at fault, when there is one.
    public let param: String?
    /// A machine-readable code, e.g. "voice_not_found".
    public let code: String?
    /// Extra response headers (Retry-After, WWW-Authenticate).
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, type: String = "invalid_request_error",
                param: String? = nil, code: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.type = type
        self.param = param
        self.code = code
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON body.
    var body: Data {
        let payload = Payload(error: .init(message: message, type: type, param: param, code: code))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(payload)) ?? Data(#"{"error":{"message":"internal error","type":"server_error"}}"#.utf8)
    }

    struct Payload: Codable {
        struct Detail: Codable {
            var message: String
            var type: String
            var param: String?
            var code: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(message, forKey: .message)
                try container.encode(type, forKey: .type)
                try container.encode(param, forKey: .param)  // null when absent, as OpenAI sends it
                try container.encode(code, forKey: .code)
            }
        }
        var error: Detail
    }
}

extension APIError {
    static func badRequest(_ message: String, param: String? = nil, code: String? = nil) -> APIError {
        APIError(.badRequest, message, param: param, code: code)
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, message, code: "invalid_api_key", headers: [.wwwAuthenticate: "Bearer"])
    }

    static func busy(_ message: String, retryAfterSeconds: Int) -> APIError {
        APIError(.tooManyRequests, message, type: "server_busy", code: "rate_limit_exceeded",
                 headers: [.retryAfter: String(retryAfterSeconds)])
    }

    /// The same error with `Connection: close`, for answers given after the route watched the
    /// connection for a hang-up (Hummingbird's inbound-close watch ends the connection's request
    /// stream, so the connection cannot serve another request: the header tells the client so).
    func closingConnection() -> APIError {
        var headers = headers
        headers[.connection] = "close"
        return APIError(status, message, type: type, param: param, code: code, headers: headers)
    }

    static func internalError(_ message: String) -> APIError {
        APIError(.internalServerError, message, type: "server_error", code: "internal_error")
    }
}
