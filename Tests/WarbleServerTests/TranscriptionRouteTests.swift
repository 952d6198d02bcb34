import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleAudio
import WarbleSpeech
@testable import WarbleServer

/// `POST /v1/audio/transcriptions` and `/translations` over the synthetic backend: every response
/// format, the whisper-1 mapping, the options that reach the recogniser, and decoded uploads.
@Suite struct TranscriptionRouteTests {
    static let spoken = "Hello from whisper-tiny.en. Second segment, language en."

    @Test func jsonIsTheDefaultAndWhisper1IsTheConfiguredModel() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let body = try object(response)
            #expect(body["text"] as? String == Self.spoken)
            let usage = try #require(body["usage"] as? [String: Any])
            #expect(usage["type"] as? String == "duration")
            #expect(usage["seconds"] as? Double == 2)
        }
        let call = try #require(await backend.probe.calls.first)
        #expect(call.model == "whisper-tiny.en")
        #expect(call.options.task == .transcribe)
        #expect(call.options.language == nil)
        #expect(call.options.temperatures == TranscriptionOptions().temperatures)  // temperature 0: fallback
        #expect(call.frames == 32000 && call.sampleRate == 16000 && call.channels == 1)
    }

    @Test(arguments: ["gpt-4o-transcribe", "gpt-4o-mini-transcribe"])
    func currentOpenAIModelNamesMeanTheConfiguredModel(name: String) async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([("model", name)]))
            #expect(response.status == .ok)
        }
        #expect(await backend.probe.calls.first?.model == "whisper-tiny.en")
    }

    @Test func streamedTranscriptionSendsASegmentAtATime() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1"), ("stream", "true")]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream")
            let events = try String(buffer: response.body).components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { event in
                #expect(event.hasPrefix("data: "))
                return try #require(try JSONSerialization.jsonObject(with: Data(event.dropFirst(6).utf8)) as? [String: Any])
            }
            let deltas = events.filter { $0["type"] as? String == "transcript.text.delta" }.compactMap { $0["delta"] as? String }
            #expect(deltas.count == 2)
            let done = try #require(events.last)
            #expect(done["type"] as? String == "transcript.text.done")
            #expect(done["text"] as? String == Self.spoken)
            #expect(deltas.joined() == Self.spoken)
            #expect((done["usage"] as? [String: Any])?["seconds"] as? Double == 2)
        }
    }

    @Test func whisper1MapsToAnotherConfiguredModel() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend, configuration: .init(defaultTranscriptionModel: "whisper-base")) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(try object(response)["text"] as? String == "Hello from whisper-base. Second segment, language en.")
        }
        #expect(await backend.probe.calls.first?.model == "whisper-base")
    }

    /// whisper-1 stands for the configured model (English-only here) unless that cannot serve the request: a
    /// language it lacks, or speech a multilingual model hears as another language. A model named is kept.
    @Test(arguments: [
        ("whisper-1", "de", nil, "whisper-base"), ("whisper-1", nil, "pt", "whisper-base"), ("whisper-1", nil, "en", "whisper-tiny.en"),
        ("whisper-1", "en", "pt", "whisper-tiny.en"), ("whisper-tiny.en", nil, "pt", "whisper-tiny.en"),
    ] as [(String, String?, String?, String)])
    func whisper1ServesWithAModelThatKnowsTheLanguage(model: String, language: String?, heard: String?, used: String) async throws {
        var backend = TranscriptionFakeBackend()
        backend.heardLanguage = heard
        try await withTranscriptionServer(backend) { client in
            let fields = [("model", model)] + (language.map { [("language", $0)] } ?? [])
            let response = try await client.transcribe(MultipartBody(fields))
            #expect(response.status == .ok)
        }
        #expect(await backend.probe.calls.map(\.model) == [used])
    }

    @Test func text() async throws {
        try await withTranscriptionServer { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1"), ("response_format", "text")]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(response.headers[.connection] == "close")  // see APIError.closingConnection
            #expect(WarbleServerTests.text(response) == Self.spoken + "\n")
        }
    }

    @Test func srt() async throws {
        try await withTranscriptionServer { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-tiny.en"), ("response_format", "srt")]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-subrip; charset=utf-8")
            #expect(WarbleServerTests.text(response) == """
                1
                00:00:00,000 --> 00:00:01,000
                Hello from whisper-tiny.en.

                2
                00:00:01,000 --> 00:00:02,000
                Second segment, language en.

                """)
        }
    }

    @Test func vtt() async throws {
        try await withTranscriptionServer { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-tiny.en"), ("response_format", "vtt")]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/vtt; charset=utf-8")
            #expect(WarbleServerTests.text(response) == """
                WEBVTT

                00:00:00.000 --> 00:00:01.000
                Hello from whisper-tiny.en.

                00:00:01.000 --> 00:00:02.000
                Second segment, language en.

                """)
        }
    }

    @Test func verboseJSON() async throws {
        try await withTranscriptionServer { client in
            let response = try await client.transcribe(MultipartBody([
                ("model", "whisper-base"), ("language", "DE"), ("response_format", "verbose_json"),
                ("timestamp_granularities[]", "segment"),
            ]))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let body = try object(response)
            #expect(body["task"] as? String == "transcribe")
            #expect(body["language"] as? String == "german")
            #expect(body["duration"] as? Double == 2)
            #expect(body["text"] as? String == "Hello from whisper-base. Second segment, language de.")
            let segments = try #require(body["segments"] as? [[String: Any]])
            #expect(segments.count == 2)
            let second = segments[1]
            #expect(second["id"] as? Int == 1)
            #expect(second["seek"] as? Int == 100)
            #expect(second["start"] as? Double == 1)
            #expect(second["end"] as? Double == 2)
            #expect(second["text"] as? String == " Second segment, language de.")
            #expect(second["tokens"] as? [Int] == [50364, 1001])
            #expect(second["temperature"] as? Double == 0)
            #expect(second["avg_logprob"] as? Double == -0.25)
            #expect(second["compression_ratio"] as? Double == 1.5)
            #expect(second["no_speech_prob"] as? Double == 0.01)
        }
    }

    /// `timestamp_granularities[]=word`: verbose_json carries `words` (OpenAI's shape: no leading space,
    /// no probability) and, unless segment is asked for too, no `segments`; the recogniser is asked
    /// for word times only then.
    @Test func wordTimestampsInVerboseJSON() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let words = try object(try await client.transcribe(MultipartBody([
                ("model", "whisper-1"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word"),
            ])))
            #expect(words["segments"] == nil)
            let list = try #require(words["words"] as? [[String: Any]])
            #expect(list.map { $0["word"] as? String } == ["Hello", "from", "whisper-tiny.en.", "Second", "segment,", "language", "en."])
            #expect(list.first?["start"] as? Double == 0)
            #expect(list.last?["end"] as? Double == 2)
            #expect(list.allSatisfy { $0.count == 3 && $0["probability"] == nil })
            let both = try object(try await client.transcribe(MultipartBody([
                ("model", "whisper-1"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word"),
                ("timestamp_granularities[]", "segment"),
            ])))
            #expect((both["segments"] as? [[String: Any]])?.count == 2)
            #expect((both["words"] as? [[String: Any]])?.count == 7)
            // The default: segments only, and no word alignment asked of the recogniser.
            let plain = try object(try await client.transcribe(MultipartBody([("model", "whisper-1"), ("response_format", "verbose_json")])))
            #expect(plain["words"] == nil && (plain["segments"] as? [[String: Any]])?.count == 2)
        }
        let asked = await backend.probe.calls.map(\.options.wordTimestamps)
        #expect(asked == [true, true, false])
    }

    @Test func optionsReachTheRecogniser() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([
                ("model", "whisper-base"), ("language", " fr "), ("prompt", "Warble, Kokoro, Piper."), ("temperature", "0.3"),
                ("some_future_option", "ignored"),
            ]))
            #expect(response.status == .ok)
        }
        let options = try #require(await backend.probe.calls.first?.options)
        #expect(options.language == "fr")
        #expect(options.initialPrompt == "Warble, Kokoro, Piper.")
        #expect(options.temperatures == [0.3])
        #expect(options.task == .transcribe)
    }

    @Test func translationsUseTheTranslationModelAndAnswerEnglish() async throws {
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(
                MultipartBody([("model", "whisper-1"), ("language", "fr"), ("response_format", "verbose_json"), ("prompt", "Wetter.")]),
                route: "/v1/audio/translations")
            #expect(response.status == .ok)
            let body = try object(response)
            #expect(body["task"] as? String == "translate")
            #expect(body["language"] as? String == "english")
            #expect(body["text"] as? String == "[translated] Hello from whisper-base. Second segment, language de.")
            for format in ["json", "text", "srt", "vtt"] {
                let other = try await client.transcribe(MultipartBody([("model", "whisper-base"), ("response_format", format)]),
                                                        route: "/v1/audio/translations")
                #expect(other.status == .ok, "\(format)")
                #expect(WarbleServerTests.text(other).contains("[translated] Hello from whisper-base."), "\(format)")
            }
        }
        let call = try #require(await backend.probe.calls.first)
        #expect(call.model == "whisper-base")
        #expect(call.options.task == .translate)
        #expect(call.options.language == nil)  // translations take no language: it is detected
        #expect(call.options.initialPrompt == "Wetter.")
    }

    @Test(arguments: [(44100, 2, SoundFileFormat.wav16), (22050, 1, .flac16), (48000, 1, .oggVorbis)])
    func anyRateChannelsAndFormatIsDecoded(rate: Int, channels: Int, format: SoundFileFormat) async throws {
        let tone = (0..<rate).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let buffer = try AudioBuffer(channels: Array(repeating: tone, count: channels), sampleRate: rate)
        let data = try SoundFile.encode(buffer, format: format)
        let backend = TranscriptionFakeBackend()
        try await withTranscriptionServer(backend) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")],
                                                                     file: ("clip.\(format.fileExtension)", "application/octet-stream", data)))
            #expect(response.status == .ok)
        }
        let call = try #require(await backend.probe.calls.first)
        #expect(call.sampleRate == rate)
        #expect(call.channels == channels)
        #expect(abs(call.frames - rate) < rate / 10)  // lossy codecs may pad a little
    }

    @Test func uploadsMayExceedTheSpeechBodyLimit() async throws {
        // 4 s of 16 kHz 16-bit audio is 128 KB, twice the 64 KB JSON body limit.
        try await withTranscriptionServer(configuration: .init(maxBodyBytes: 64 << 10)) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")],
                                                                     file: ("long.wav", "audio/wav", testWAV(seconds: 4))))
            #expect(response.status == .ok)
        }
    }

    @Test func modelsListTheRecognitionModels() async throws {
        try await withTranscriptionServer { client in
            let list = try await client.execute(uri: "/v1/models", method: .get)
            let ids = try #require(try object(list)["data"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(Array(ids.suffix(5)) == ["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe", "whisper-base", "whisper-tiny.en"])
            #expect(ids.contains("tts-1"))
            for id in ["whisper-1", "whisper-tiny.en"] {
                let one = try await client.execute(uri: "/v1/models/\(id)", method: .get)
                #expect(one.status == .ok)
                #expect(try object(one)["id"] as? String == id)
            }
        }
        // Without recognition models, none is listed.
        try await withTranscriptionServer(NoTranscriptionBackend()) { client in
            let list = try await client.execute(uri: "/v1/models", method: .get)
            let ids = try #require(try object(list)["data"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(!ids.contains("whisper-1"))
        }
    }

    @Test func apiKeyIsRequiredWhenSet() async throws {
        try await withTranscriptionServer(configuration: .init(apiKey: "sesame")) { client in
            let missing = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(missing.status == .unauthorized)
            let right = try await client.transcribe(MultipartBody([("model", "whisper-1")]),
                                                    headers: [.authorization: "Bearer sesame"])
            #expect(right.status == .ok)
        }
    }
}
