import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleAudio
@testable import WarbleServer

/// Every way a transcription or translation can be refused, with its status, OpenAI error shape and code.
@Suite struct TranscriptionErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var route = "/v1/audio/transcriptions"
        var body: MultipartBody
        var status: HTTPResponse.Status
        var code: String?
        var param: String?
        var messageContains: String
        var testDescription: String { name }
    }

    static let emptyWAV = try! WAVEncoder(sampleFormat: .int16).encode(AudioBuffer(mono: [], sampleRate: 16000))

    static let oneHertzWAV: Data = {
        var bytes = [UInt8](testWAV(seconds: 0.5))
        bytes.replaceSubrange(24..<32, with: [1, 0, 0, 0, 2, 0, 0, 0])  // sample rate 1 Hz, byte rate 2
        return Data(bytes)
    }()

    static let cutFLAC: Data = {
        let tone = AudioBuffer(mono: (0..<64000).map { Float(sin(Double($0) * 0.05)) * 0.3 }, sampleRate: 16000)
        let flac = try! SoundFile.encode(tone, format: .flac16)
        return flac.prefix(flac.count * 3 / 100)
    }()

    static let cases: [Case] = [
        Case(name: "a WAV whose header says 1 Hz", body: MultipartBody([("model", "whisper-1")], file: ("a.wav", "audio/wav", oneHertzWAV)),
             status: .badRequest, code: "invalid_file", param: "file",
             messageContains: "'a.wav' cannot be used: the audio declares a sample rate of 1 Hz; accepted are 8000 to 192000 Hz"),
        Case(name: "a FLAC cut to 3 % of its bytes", body: MultipartBody([("model", "whisper-1")], file: ("a.flac", "audio/flac", cutFLAC)),
             status: .badRequest, code: "invalid_file", param: "file",
             messageContains: "'a.flac' is incomplete: its header declares 4.0 s of audio but only"),
        Case(name: "missing file", body: MultipartBody([("model", "whisper-1"), ("language", "en")], file: nil),
             status: .badRequest, code: "missing_required_parameter", param: "file", messageContains: "found: model, language"),
        Case(name: "missing model", body: MultipartBody([("language", "en")]), status: .badRequest,
             code: "missing_required_parameter", param: "model", messageContains: "whisper-1"),
        Case(name: "not audio", body: MultipartBody([("model", "whisper-1")],
                                                    file: ("notes.txt", "text/plain", Data("hello, this is text".utf8))),
             status: .badRequest, code: "invalid_file_format", param: "file",
             messageContains: "'notes.txt' is not audio this server can read (19 bytes, sent as text/plain, starting 'hello, this '"),
        Case(name: "empty file", body: MultipartBody([("model", "whisper-1")], file: ("a.wav", "audio/wav", Data())),
             status: .badRequest, code: "audio_too_short", param: "file", messageContains: "empty (0 bytes)"),
        Case(name: "audio with no samples", body: MultipartBody([("model", "whisper-1")], file: ("a.wav", "audio/wav", emptyWAV)),
             status: .badRequest, code: "audio_too_short", param: "file", messageContains: "0 samples"),
        Case(name: "unknown model", body: MultipartBody([("model", "whisper-large")]), status: .notFound,
             code: "model_not_found", param: "model", messageContains: "whisper-1, whisper-base, whisper-tiny.en"),
        Case(name: "speech model on the transcription route", body: MultipartBody([("model", "tts-1")]), status: .notFound,
             code: "model_not_found", param: "model", messageContains: "'tts-1'"),
        Case(name: "unknown language", body: MultipartBody([("model", "whisper-base"), ("language", "xx")]),
             status: .badRequest, code: "invalid_value", param: "language", messageContains: "use one of en, de, fr"),
        Case(name: "language an English-only model lacks", body: MultipartBody([("model", "whisper-tiny.en"), ("language", "de")]),
             status: .badRequest, code: "invalid_value", param: "language", messageContains: "English-only"),
        Case(name: "translation with an English-only model", route: "/v1/audio/translations",
             body: MultipartBody([("model", "whisper-tiny.en")]), status: .badRequest, code: "invalid_value", param: "model",
             messageContains: "cannot translate; use a multilingual model: whisper-base"),
        Case(name: "temperature out of range", body: MultipartBody([("model", "whisper-1"), ("temperature", "1.5")]),
             status: .badRequest, code: "invalid_value", param: "temperature", messageContains: "0...1"),
        Case(name: "temperature not a number", body: MultipartBody([("model", "whisper-1"), ("temperature", "warm")]),
             status: .badRequest, code: "invalid_value", param: "temperature", messageContains: "'warm'"),
        Case(name: "unknown response_format", body: MultipartBody([("model", "whisper-1"), ("response_format", "mp3")]),
             status: .badRequest, code: "invalid_value", param: "response_format",
             messageContains: "json, text, srt, vtt, verbose_json"),
        Case(name: "word timestamps outside verbose_json", body: MultipartBody([("model", "whisper-1"), ("timestamp_granularities[]", "word")]),
             status: .badRequest, code: "invalid_value", param: "timestamp_granularities",
             messageContains: "only in response_format verbose_json (asked for json)"),
        Case(name: "unknown timestamp granularity", body: MultipartBody([("model", "whisper-1"), ("response_format", "verbose_json"),
                                                                          ("timestamp_granularities[]", "sentence")]),
             status: .badRequest, code: "invalid_value", param: "timestamp_granularities",
             messageContains: "'sentence' is not one of word, segment"),
        Case(name: "streamed word timestamps", body: MultipartBody([("model", "whisper-1"), ("response_format", "verbose_json"),
                                                                     ("timestamp_granularities[]", "word"), ("stream", "true")]),
             status: .badRequest, code: "invalid_value", param: "stream", messageContains: "word timestamps are not streamed"),
        Case(name: "streamed translation", route: "/v1/audio/translations",
             body: MultipartBody([("model", "whisper-1"), ("stream", "true")]), status: .badRequest,
             code: "invalid_value", param: "stream", messageContains: "not supported for translations"),
        Case(name: "stream neither true nor false", body: MultipartBody([("model", "whisper-1"), ("stream", "yes")]),
             status: .badRequest, code: "invalid_value", param: "stream", messageContains: "'yes'"),
        Case(name: "model fault", body: MultipartBody([("model", "whisper-1"), ("prompt", "BROKEN")]),
             status: .internalServerError, code: "internal_error", messageContains: "model run failed"),
        Case(name: "recogniser refuses the audio", body: MultipartBody([("model", "whisper-1"), ("prompt", "NOAUDIO")]),
             status: .badRequest, code: "invalid_value", param: "file", messageContains: "nothing to recognise"),
    ]

    @Test(arguments: cases)
    func refused(_ test: Case) async throws {
        try await withTranscriptionServer { client in
            let response = try await client.transcribe(test.body, route: test.route)
            #expect(response.status == test.status)
            let error = try ErrorBody(response).error
            #expect(error.code == test.code)
            #expect(error.param == test.param)
            #expect(error.type == (test.status.code >= 500 ? "server_error" : "invalid_request_error"))
            #expect(error.message.contains(test.messageContains), "\(error.message)")
        }
    }

    struct RawCase: Sendable, CustomTestStringConvertible {
        var name: String
        var contentType: String?
        var body: String
        var messageContains: String
        var testDescription: String { name }
    }

    static let raw: [RawCase] = [
        RawCase(name: "JSON instead of a form", contentType: "application/json", body: #"{"model":"whisper-1"}"#,
                messageContains: "Content-Type is 'application/json'"),
        RawCase(name: "no Content-Type", contentType: nil, body: "x", messageContains: "no Content-Type"),
        RawCase(name: "no boundary parameter", contentType: "multipart/form-data", body: "x", messageContains: "no boundary"),
        RawCase(name: "missing closing boundary", contentType: "multipart/form-data; boundary=B",
                body: "--B\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1", messageContains: "no closing '--B--'"),
        RawCase(name: "another boundary than announced", contentType: "multipart/form-data; boundary=B",
                body: "--C\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n--C--", messageContains: "no boundary '--B'"),
    ]

    @Test(arguments: raw)
    func badMultipartIs400(_ test: RawCase) async throws {
        try await withTranscriptionServer { client in
            var headers: HTTPFields = [:]
            if let type = test.contentType { headers[.contentType] = type }
            let response = try await client.execute(uri: "/v1/audio/transcriptions", method: .post, headers: headers,
                                                    body: ByteBuffer(string: test.body))
            #expect(response.status == .badRequest)
            let error = try ErrorBody(response).error
            #expect(error.code == "invalid_multipart")
            #expect(error.message.contains(test.messageContains), "\(error.message)")
        }
    }

    @Test func uploadLongerThanTheLimitIs400() async throws {
        try await withTranscriptionServer(configuration: .init(maxUploadSeconds: 1)) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")],
                                                                     file: ("a.wav", "audio/wav", testWAV(seconds: 2))))
            #expect(response.status == .badRequest)
            let error = try ErrorBody(response).error
            #expect(error.code == "invalid_file")
            #expect(error.message.contains("holds 2 s of audio, more than the 1 s accepted "
                + "(this server's limit: warble serve --max-upload-seconds 1)"), "\(error.message)")
        }
    }

    @Test func uploadOverTheLimitIs413() async throws {
        try await withTranscriptionServer(configuration: .init(maxUploadBytes: 16 << 10)) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")],
                                                                     file: ("a.wav", "audio/wav", testWAV(seconds: 1))))
            #expect(response.status == .contentTooLarge)
            let error = try ErrorBody(response).error
            #expect(error.code == "request_too_large")
            #expect(error.message.contains("16384-byte limit"))
            // A Content-Length over the limit is refused before the body is read.
            let body = MultipartBody([("model", "whisper-1")], file: ("a.wav", "audio/wav", testWAV(seconds: 1)))
            let streamed = try await client.execute(
                uri: "/v1/audio/transcriptions", method: .post,
                headers: [.contentType: body.contentType, .contentLength: String(body.bytes.readableBytes)], body: body.bytes)
            #expect(streamed.status == .contentTooLarge)
        }
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(maxUploadBytes: 10).validate() }
    }

    @Test func whisper1ForAModelThatIsNotInstalledIs404() async throws {
        let backend = TranscriptionFakeBackend(models: [TranscriptionFakeBackend.models[1]])  // tiny.en only
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]), route: "/v1/audio/translations")
            #expect(response.status == .notFound)
            let error = try ErrorBody(response).error
            #expect(error.code == "model_not_found")
            #expect(error.message.contains("whisper-1 stands for 'whisper-base'"))
            #expect(error.message.contains("--translation-model"))
        }
    }

    @Test func noRecognitionModelInstalledIs404() async throws {
        try await withTranscriptionServer(NoTranscriptionBackend()) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(response.status == .notFound)
            #expect(try ErrorBody(response).error.message.contains("no speech recognition model is installed"))
        }
    }
}
