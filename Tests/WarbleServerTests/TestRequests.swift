import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleServer

/// Builds the app around a backend and runs `body` against it in-process.
func withServer<Value: Sendable>(
    _ backend: FakeSpeechBackend = FakeSpeechBackend(), configuration: ServerConfiguration = .init(),
    _ body: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let server = SpeechServer(backend: backend, configuration: configuration)
    let app = Application(router: server.makeRouter())
    return try await app.test { client in try await body(client) }
}

/// A JSON request body.
func json(_ object: [String: any Sendable]) -> ByteBuffer {
    ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
}

extension TestClientProtocol {
    /// POST /v1/audio/speech with `fields` as JSON.
    func speech(_ fields: [String: any Sendable], headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: "/v1/audio/speech", method: .post, headers: headers, body: json(fields))
    }
}

/// The `error` object of an OpenAI-shaped error body, checked for its required fields.
struct ErrorBody: Decodable {
    struct Detail: Decodable {
        var message: String
        var type: String
        var param: String?
        var code: String?
    }
    var error: Detail

    init(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
        self = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
    }
}

/// Decoded JSON of a response body.
func object(_ response: TestResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
}
