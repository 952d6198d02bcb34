import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleAudio
import WarbleSpeech
@testable import WarbleServer

/// The live caption sessions (`/v1/audio/live`) over a synthetic live recogniser: a loudness detector in
/// Silero's place and a recogniser that hears "hello world" in any speech, with `TextTranslationRouteTests`'
/// reversing translator. The lifecycle (open, audio, end, the events), the limits and the bad inputs.
@Suite(.timeLimit(.minutes(1))) struct LiveRouteTests {
    /// Speech wherever a window's mean absolute level passes 0.05.
    struct LoudnessDetector: VoiceActivityDetector {
        final class Stream: VoiceActivityStream {
            func probability(_ window: ArraySlice<Float>) throws -> Float { LoudnessDetector.level(window) }
        }
        var sampleRate: Int { 16_000 }
        var window: Int { 512 }
        static func level(_ window: ArraySlice<Float>) -> Float {
            window.reduce(0) { $0 + abs($1) } / Float(max(window.count, 1)) > 0.05 ? 0.95 : 0.02
        }
        func probabilities(_ samples: [Float], padLast: Bool, cancel: CancellationToken) throws -> [Float] {
            stride(from: 0, to: samples.count, by: window).compactMap { start in
                let end = min(start + window, samples.count)
                return end - start == window || padLast ? Self.level(samples[start..<end]) : nil
            }
        }
        func makeStream() throws -> any VoiceActivityStream { Stream() }
    }

    struct HelloRecognizer: SpeechRecognizer {
        func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
            AsyncThrowingStream { continuation in
                continuation.yield(TranscriptSegment(start: 0, end: audio.duration, text: " hello world", tokens: [], language: "en"))
                continuation.finish()
            }
        }
    }

    struct FakeLive: LiveRecognitionBackend {
        func liveTranscriber(model: String, options: LiveRecognitionOptions) async throws -> LiveTranscriber {
            LiveTranscriber(recognizer: HelloRecognizer(), detector: LoudnessDetector(), options: options)
        }
    }

    func withLive(sessions: Int = 2, idle: Duration = .seconds(60), live: any LiveRecognitionBackend = FakeLive(),
                  _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var configuration = ServerConfiguration()
        configuration.maxLiveSessions = sessions
        configuration.idleTimeout = idle
        configuration.defaultTranscriptionModel = "whisper-tiny.en"
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: TranscriptionFakeBackend(),
                                  translator: TextTranslationRouteTests.Reverser(), live: live, configuration: configuration)
        try await Application(router: server.makeRouter()).test { client in try await body(client) }
    }

    func open(_ client: some TestClientProtocol, _ fields: [String: any Sendable]) async throws -> TestResponse {
        try await client.execute(uri: "/v1/audio/live", method: .post, headers: [.contentType: "application/json"], body: json(fields))
    }

    /// `seconds` of 16-bit PCM: a 200 Hz tone at half scale (speech to the detector), or silence.
    static func pcm(seconds: Double, loud: Bool) -> ByteBuffer {
        var buffer = ByteBuffer()
        for index in 0..<Int(seconds * 16_000) {
            let value = loud ? sin(Double(index) * 2 * .pi * 200 / 16_000) * 0.5 : 0
            buffer.writeInteger(Int16(value * 32767), endianness: .little)
        }
        return buffer
    }

    /// The `data:` payloads of an event stream.
    static func events(_ response: TestResponse) throws -> [[String: Any]] {
        String(buffer: response.body).components(separatedBy: "\n\n").compactMap { block in
            guard block.hasPrefix("data: ") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(block.dropFirst(6).utf8)) as? [String: Any]
        }
    }

    @Test func aSessionCaptionsTranslatesAndEnds() async throws {
        try await withLive { client in
            let opened = try await open(client, ["model": "whisper-tiny.en", "translate_to": "pt"])
            #expect(opened.status == .created)
            let session = try object(opened)
            let id = try #require(session["id"] as? String)
            #expect(session["object"] as? String == "live.session")
            #expect(session["sample_rate"] as? Int == 16_000)
            #expect(session["translate_to"] as? String == "pt")
            for chunk in [Self.pcm(seconds: 1.5, loud: true), Self.pcm(seconds: 1, loud: false)] {
                let sent = try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post, body: chunk)
                #expect(sent.status == .noContent)
            }
            let ended = try await client.execute(uri: "/v1/audio/live/\(id)", method: .delete)
            #expect(ended.status == .ok)
            #expect(try object(ended)["seconds"] as? Double == 2.5)
            let late = try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post, body: Self.pcm(seconds: 0.1, loud: true))
            #expect(late.status == .conflict)
            #expect(try ErrorBody(late).error.code == "session_ended")

            let stream = try await client.execute(uri: "/v1/audio/live/\(id)/events", method: .get)
            #expect(stream.status == .ok)
            #expect(stream.headers[.contentType] == "text/event-stream")
            let events = try Self.events(stream).filter { $0["type"] as? String != "partial" }
            #expect(events.map { $0["type"] as? String } == ["final", "translation", "done"])
            #expect(events.first?["text"] as? String == "hello world")
            #expect(events.first?["id"] as? Int == 1)
            #expect(events.dropFirst().first?["text"] as? String == "dlrow olleh")
            #expect(events.dropFirst().first?["model"] as? String == "fake-enpt")
            #expect(events.last?["finals"] as? Int == 1)

            let gone = try await client.execute(uri: "/v1/audio/live/\(id)/events", method: .get)
            #expect(gone.status == .notFound)
            #expect(try ErrorBody(gone).error.code == "session_not_found")
        }
    }

    @Test func sessionsAreBoundedAndTheirPlacesComeBack() async throws {
        try await withLive(sessions: 1) { client in
            let first = try await open(client, [:])
            #expect(first.status == .created)
            let full = try await open(client, [:])
            #expect(full.status == .tooManyRequests)
            #expect(try ErrorBody(full).error.message.contains("--max-live-sessions"))
            let id = try #require(try object(first)["id"] as? String)
            _ = try await client.execute(uri: "/v1/audio/live/\(id)", method: .delete)
            let events = try await client.execute(uri: "/v1/audio/live/\(id)/events", method: .get)
            #expect(try Self.events(events).last?["type"] as? String == "done")
            #expect(try await open(client, [:]).status == .created)
        }
    }

    @Test func badInputIsRefusedClearly() async throws {
        try await withLive { client in
            let id = try #require(try object(try await open(client, [:]))["id"] as? String)
            let odd = try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post, body: ByteBuffer(bytes: [1, 2, 3]))
            #expect(odd.status == .badRequest)
            #expect(try ErrorBody(odd).error.code == "invalid_audio")
            let empty = try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post, body: ByteBuffer())
            #expect(empty.status == .badRequest)
            let large = try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post,
                                                 body: ByteBuffer(repeating: 0, count: LiveRoutes.maxChunkBytes + 2))
            #expect(large.status == .contentTooLarge)

            let unknown = try await client.execute(uri: "/v1/audio/live/live_nope/audio", method: .post, body: Self.pcm(seconds: 0.1, loud: false))
            #expect(unknown.status == .notFound)
            #expect(try ErrorBody(unknown).error.code == "session_not_found")
            #expect(try await client.execute(uri: "/v1/audio/live/live_nope", method: .delete).status == .notFound)
            let language = try await open(client, ["language": "english; rm"])
            #expect(language.status == .badRequest)
            #expect(try ErrorBody(language).error.param == "language")
            let model = try await open(client, ["model": "no-such-model"])
            #expect(model.status == .notFound)
            #expect(try ErrorBody(model).error.code == "model_not_found")
            let pair = try await open(client, ["translate_to": "de"])
            #expect(pair.status == .notFound)
            #expect(try ErrorBody(pair).error.message.contains("en→de"))
            let notJSON = try await client.execute(uri: "/v1/audio/live", method: .post, body: ByteBuffer(string: "{"))
            #expect(notJSON.status == .badRequest)
            #expect(try ErrorBody(notJSON).error.code == "invalid_json")
        }
    }

    /// A session without audio expires after the idle time even while a reader waits: the reader's stream ends
    /// with `session_expired` (the GET returns only once the session has expired, so nothing here sleeps).
    @Test func anIdleSessionExpires() async throws {
        try await withLive(idle: .milliseconds(50)) { client in
            let id = try #require(try object(try await open(client, [:]))["id"] as? String)
            let stream = try await client.execute(uri: "/v1/audio/live/\(id)/events", method: .get)
            let last = try #require(try Self.events(stream).last)
            #expect(last["type"] as? String == "error")
            #expect((last["error"] as? [String: Any])?["code"] as? String == "session_expired")
            #expect(try await client.execute(uri: "/v1/audio/live/\(id)/audio", method: .post, body: Self.pcm(seconds: 0.1, loud: false))
                .status == .notFound)
            #expect(try object(try await client.execute(uri: "/v1/audio/live", method: .get))["sessions"] as? Int == 0)
        }
    }

    @Test func theOfferListsModelsAndTheFormat() async throws {
        try await withLive { client in
            let offer = try object(try await client.execute(uri: "/v1/audio/live", method: .get))
            let models = try #require(offer["models"] as? [[String: Any]])
            #expect(models.compactMap { $0["id"] as? String } == ["whisper-tiny.en", "whisper-base"])
            #expect(offer["default_model"] as? String == "whisper-tiny.en")
            #expect(offer["sample_rate"] as? Int == 16_000)
            #expect(offer["format"] as? String == "s16le")
            #expect(offer["max_sessions"] as? Int == 2)
        }
    }

    @Test func withoutLiveRecognitionItIs404() async throws {
        try await withLive(live: NoLiveRecognitionBackend()) { client in
            let response = try await open(client, [:])
            #expect(response.status == .notFound)
            #expect(try ErrorBody(response).error.message.contains("no live captions"))
        }
    }
}
