import Hummingbird
import NIOCore

/// A response as a test reads it: its head, its whole body and any trailers.
public struct TestResponse: Sendable {
    public var head: HTTPResponse
    public var body: ByteBuffer
    public var trailerHeaders: HTTPFields?

    public var status: HTTPResponse.Status { head.status }
    public var headers: HTTPFields { head.headerFields }
}

/// Sends requests to the application under test (`ApplicationProtocol.test`).
public protocol TestClientProtocol: Sendable {
    /// The loopback port the application listens on.
    var port: Int? { get }
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse
}

extension TestClientProtocol {
    /// One request and its whole response; a body gets its Content-Length unless `headers` give one.
    public func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:],
                        body: ByteBuffer? = nil) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}
