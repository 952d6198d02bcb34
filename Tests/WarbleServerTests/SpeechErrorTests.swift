import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer

/// Every way a speech request can be refused, with its status, OpenAI error shape and code.
@Suite struct SpeechErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var fields: [String: any Sendable]
        var status: HTTPResponse.Status
        var code: String?
        var param: String?
        var messageContains: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing input", fields: ["model": "tts-1", "voice": "test-voice"], status: .badRequest,
             code: "invalid_json", messageContains: "input"),
        Case(name: "input of the wrong type", fields: ["model": "tts-1", "input": 5], status: .badRequest,
             code: "invalid_json", messageContains: "input"),
        Case(name: "empty input", fields: ["model": "tts-1", "input": "  \n"], status: .badRequest,
             code: "invalid_input", param: "input", messageContains: "empty"),
        Case(name: "input too long", fields: ["model": "tts-1", "input": String(repeating: "a", count: 101)],
             status: .badRequest, code: "string_above_max_length", param: "input", messageContains: "limit is 100"),
        Case(name: "noise scale out of range", fields: ["model": "tts-1", "input": "Hi.", "noise_scale": 3], status: .badRequest,
             code: "invalid_value", param: "noise_scale", messageContains: "from 0.0 to 2.0"),
        Case(name: "length scale zero", fields: ["model": "tts-1", "input": "Hi.", "length_scale": 0], status: .badRequest,
             code: "invalid_value", param: "length_scale", messageContains: "length scale"),
        Case(name: "negative seed", fields: ["model": "tts-1", "input": "Hi.", "seed": -1], status: .badRequest,
             code: "invalid_value", param: "seed", messageContains: "whole number"),
        Case(name: "seed of the wrong type", fields: ["model": "tts-1", "input": "Hi.", "seed": "7"], status: .badRequest,
             code: "invalid_value", param: "seed", messageContains: "whole number"),
        Case(name: "instructions too long", fields: ["model": "tts-1", "input": "Hi.", "voice": "other-voice",
                                                     "instructions": String(repeating: "a", count: 501)],
             status: .badRequest, code: "string_above_max_length", param: "instructions", messageContains: "at most 500"),
        Case(name: "instructions with special tokens", fields: ["model": "tts-1", "input": "Hi.", "voice": "other-voice",
                                                                "instructions": "<|endofprompt|>"],
             status: .badRequest, code: "invalid_value", param: "instructions", messageContains: "special tokens"),
        Case(name: "unknown voice", fields: ["model": "tts-1", "input": "Hi.", "voice": "nobody"], status: .notFound,
             code: "voice_not_found", param: "voice", messageContains: "nobody"),
        Case(name: "unknown model", fields: ["model": "whisper-1", "input": "Hi."], status: .notFound,
             code: "model_not_found", param: "model", messageContains: "tts-1"),
        Case(name: "voice of another model", fields: ["model": "test-model", "input": "Hi.", "voice": "other-voice"],
             status: .badRequest, code: "invalid_value", param: "voice", messageContains: "other-model"),
        Case(name: "speed too high", fields: ["model": "tts-1", "input": "Hi.", "speed": 5], status: .badRequest,
             code: "invalid_value", param: "speed", messageContains: "0.25...4"),
        Case(name: "unknown response_format", fields: ["model": "tts-1", "input": "Hi.", "response_format": "m4a"],
             status: .badRequest, code: "invalid_value", param: "response_format", messageContains: "wav, mp3, opus, aac, flac, pcm"),
        Case(name: "unknown stream_format", fields: ["model": "tts-1", "input": "Hi.", "stream_format": "chunks"],
             status: .badRequest, code: "invalid_value", param: "stream_format", messageContains: "sse"),
        Case(name: "bad SSML", fields: ["model": "tts-1", "input": "<speak><bad/></speak>"], status: .badRequest,
             code: "invalid_ssml", param: "input", messageContains: "line 1, column 8"),
        Case(name: "nothing to say", fields: ["model": "tts-1", "input": "nothing"], status: .badRequest,
             code: "invalid_input", param: "input", messageContains: "nothing to say"),
        Case(name: "model fault", fields: ["model": "tts-1", "input": "BROKEN"], status: .internalServerError,
             code: "internal_error", messageContains: "model run failed"),
    ]

    @Test(arguments: cases)
    func refused(_ test: Case) async throws {
        try await withServer(configuration: .init(maxInputCharacters: 100)) { client in
            let response = try await client.speech(test.fields)
            #expect(response.status == test.status)
            let body = try ErrorBody(response)
            #expect(body.error.code == test.code)
            #expect(body.error.param == test.param)
            #expect(body.error.type == (test.status == .internalServerError ? "server_error" : "invalid_request_error"))
            #expect(body.error.message.contains(test.messageContains), "\(body.error.message)")
        }
    }

    @Test func invalidJSONIs400() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/v1/audio/speech", method: .post,
                                                    headers: [.contentType: "application/json"],
                                                    body: ByteBuffer(string: "{\"model\": "))
            #expect(response.status == .badRequest)
            #expect(try ErrorBody(response).error.code == "invalid_json")
        }
    }

    @Test func oversizedBodyIs413() async throws {
        try await withServer(configuration: .init(maxBodyBytes: 2048)) { client in
            let response = try await client.speech(["model": "tts-1", "input": String(repeating: "a", count: 4000)])
            #expect(response.status == .contentTooLarge)
            #expect(try ErrorBody(response).error.message.contains("2048-byte limit"))
        }
    }

    @Test func refusedRequestsLeaveNoSlotTaken() async throws {
        let server = SpeechServer(backend: FakeSpeechBackend(), configuration: .init(maxConcurrentSyntheses: 1))
        try await Application(router: server.makeRouter()).test { client in
            for _ in 0..<3 { _ = try await client.speech(["model": "tts-1", "input": "BROKEN"]) }
            _ = try await client.speech(["model": "tts-1", "input": "<speak><bad/></speak>"])
            let ok = try await client.speech(["model": "tts-1", "input": "Fine.", "response_format": "wav"])
            #expect(ok.status == .ok)
        }
        #expect(await server.admission.active == 0)
        #expect(await server.admission.counters == .init(completed: 1, refused: 1, failed: 3))
    }
}

/// A format the server cannot produce (AAC without libavcodec's encoder) is a 400 naming the formats it can.
@Suite struct UnavailableFormatTests {
    @Test func theErrorNamesWhyAndTheFormatsThatWork() {
        let error = AudioResponseFormat.aac.unavailable(available: [.wav, .mp3, .pcm])
        #expect(error.status == .badRequest)
        #expect(error.param == "response_format")
        #expect(error.message.contains("AAC encoder (libavcodec)"))
        #expect(error.message.hasSuffix("use one of wav, mp3, pcm"))
    }
}
