import Foundation
import Hummingbird
import WarbleHTTPTesting
import WarbleAudio
import WarbleServer

/// Builds the app around both backends and runs `body` against it in-process.
func withTranscriptionServer<Value: Sendable>(
    _ transcriber: any TranscriptionBackend = TranscriptionFakeBackend(), configuration: ServerConfiguration = .init(),
    speech: FakeSpeechBackend = FakeSpeechBackend(),
    _ body: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let server = SpeechServer(backend: speech, transcriber: transcriber, configuration: configuration)
    let app = Application(router: server.makeRouter())
    return try await app.test { client in try await body(client) }
}

/// A multipart/form-data body as OpenAI's clients send it: text fields, then the file.
struct MultipartBody: Sendable {
    var fields: [(name: String, value: String)]
    var file: (filename: String, contentType: String, data: Data)?
    var boundary = "----warble-test-boundary-1d2c"

    init(_ fields: [(String, String)], file: (String, String, Data)? = ("clip.wav", "audio/wav", testWAV())) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
        self.file = file.map { (filename: $0.0, contentType: $0.1, data: $0.2) }
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var bytes: ByteBuffer {
        var data = Data()
        for field in fields {
            data += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\"\r\n\r\n\(field.value)\r\n".utf8)
        }
        if let file {
            data += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.filename)\"\r\n".utf8)
            data += Data("Content-Type: \(file.contentType)\r\n\r\n".utf8)
            data += file.data
            data += Data("\r\n".utf8)
        }
        data += Data("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: data)
    }
}

/// `seconds` of a 440 Hz tone as a 16-bit WAV file.
func testWAV(seconds: Double = 2, sampleRate: Int = 16000, channels: Int = 1) -> Data {
    let count = Int(seconds * Double(sampleRate))
    let tone = (0..<count).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / Double(sampleRate))) }
    let buffer = try! AudioBuffer(channels: Array(repeating: tone, count: channels), sampleRate: sampleRate)
    return try! WAVEncoder(sampleFormat: .int16).encode(buffer)
}

extension TestClientProtocol {
    /// POST a multipart form to /v1/audio/transcriptions (or `route`).
    func transcribe(_ body: MultipartBody, route: String = "/v1/audio/transcriptions",
                    headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = body.contentType
        return try await execute(uri: route, method: .post, headers: headers, body: body.bytes)
    }
}

/// The response body as text.
func text(_ response: TestResponse) -> String { String(buffer: response.body) }
