import Foundation
import Hummingbird

/// A request body read whole, up to a limit (413 `request_too_large` past it).
enum BoundedBody {
    static func collect(_ request: inout Request, limit: Int) async throws -> ByteBuffer {
        let tooLarge = APIError(.contentTooLarge, "the request body is larger than the \(limit)-byte limit", code: "request_too_large")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        do { return try await request.collectBody(upTo: limit) } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
    }

    /// The body as JSON of `type` (400 `invalid_json` when it is not).
    static func decode<Body: Decodable>(_ type: Body.Type, from request: inout Request, limit: Int) async throws -> Body {
        let buffer = try await collect(&request, limit: limit)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(translating: error)
        }
    }
}
