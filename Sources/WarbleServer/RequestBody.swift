import Hummingbird

extension Request {
    /// The whole body, within `limit` bytes: one declared (Content-Length) or arriving larger throws `tooLarge`.
    mutating func collectBody(limit: Int, tooLarge: APIError) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        do { return try await collectBody(upTo: limit) } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
    }

    /// A JSON body, within the server's `--max-body-bytes` (`limit`): larger is 413 `request_too_large`.
    mutating func collectJSONBody(limit: Int) async throws -> ByteBuffer {
        try await collectBody(limit: limit, tooLarge: APIError(.contentTooLarge, "the request body is larger than the \(limit)-byte limit",
                                                               code: "request_too_large"))
    }
}
