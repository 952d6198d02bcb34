import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleAudio
@testable import WarbleServer

@Suite struct SpeechRouteTests {
    /// Three sentences of 0.2 s each from the fake backend.
    let threeSentences = "One two. Three four. Five six."

    @Test func wavStreamsOneHeaderThenEveryChunk() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": threeSentences, "voice": "test-voice",
                                                    "response_format": "wav"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/wav")
            #expect(response.headers[.init("X-Warble-Sample-Rate")!] == "22050")
            let bytes = Data(buffer: response.body)
            #expect(bytes.prefix(4) == Data("RIFF".utf8))
            // One header only: "RIFF" and "WAVE" appear exactly once.
            #expect(bytes.ranges(of: Data("RIFF".utf8)).count == 1)
            // Streaming header: sizes unknown (0xFFFFFFFF).
            #expect(bytes[4..<8] == Data([0xFF, 0xFF, 0xFF, 0xFF]))
            let file = try WAVDecoder.decode(bytes)
            #expect(file.audio.sampleRate == 22050)
            #expect(file.audio.frameCount == 3 * 4410)
            #expect(file.audio.samples.map(abs).max()! > 0.4)
        }
    }

    @Test func pcmIs24kHz16BitWithoutHeader() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": threeSentences, "voice": "test-voice",
                                                    "response_format": "pcm"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/pcm")
            #expect(response.headers[.init("X-Warble-Sample-Rate")!] == "24000")
            let bytes = Data(buffer: response.body)
            #expect(bytes.prefix(4) != Data("RIFF".utf8))
            #expect(bytes.count % 2 == 0)
            // 0.6 s at 24 kHz; the resampler's length is exact to within a few samples (tolerance: 4 samples).
            #expect(abs(bytes.count / 2 - 14400) <= 4)
            let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            #expect(samples.map { abs(Int($0)) }.max()! > 10000)
        }
    }

    @Test(arguments: [("flac", "fLaC"), ("opus", "OggS")])
    func compressedFormatsDecode(format: String, magic: String) async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": threeSentences, "voice": "test-voice",
                                                    "response_format": format])
            #expect(response.status == .ok)
            let bytes = Data(buffer: response.body)
            #expect(bytes.prefix(4) == Data(magic.utf8))
            let audio = try SoundFile.decode(bytes)
            // Duration within 0.05 s of the 0.6 s synthesised (codec padding).
            #expect(abs(audio.duration - 0.6) < 0.05)
        }
    }

    @Test func mp3IsTheDefaultFormat() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": threeSentences, "voice": "test-voice"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/mpeg")
            let audio = try SoundFile.decode(Data(buffer: response.body))
            #expect(audio.sampleRate == 22050)
            // MP3 adds encoder delay and frame padding: within 0.1 s of 0.6 s.
            #expect(abs(audio.duration - 0.6) < 0.1)
        }
    }

    @Test func voiceDefaultsAndSpeedReachTheEngine() async throws {
        let backend = FakeSpeechBackend()
        try await withServer(backend) { client in
            let response = try await client.speech(["model": "other-model", "input": "Hi.", "speed": 1.5,
                                                    "response_format": "wav", "instructions": "cheerful"])
            #expect(response.status == .ok)
        }
        let request = try #require(await backend.probe.requests.first)
        #expect(request.voice == "other-voice")
        #expect(request.rate == 1.5)
        #expect(!request.isSSML)
        #expect(request.controls.instruction == "cheerful", "other-voice's model takes instructions")
    }

    /// `instructions` reach a model that takes them and are ignored for the others (as OpenAI's tts-1
    /// ignores them); `seed` (an extension) reaches the model.
    @Test func instructionsAndSeedReachTheModelsThatTakeThem() async throws {
        let backend = FakeSpeechBackend()
        try await withServer(backend) { client in
            for fields: [String: any Sendable] in [
                ["model": "tts-1", "input": "Hi.", "voice": "test-voice", "instructions": "whisper", "response_format": "wav"],
                ["model": "tts-1", "input": "Hi.", "voice": "other-voice", "instructions": "whisper", "seed": 42, "response_format": "wav"],
                ["model": "tts-1", "input": "Hi.", "voice": "other-voice", "instructions": "  ", "response_format": "wav"],
                // Long instructions for a model that ignores them are ignored, not refused.
                ["model": "tts-1", "input": "Hi.", "voice": "test-voice", "instructions": String(repeating: "a", count: 900),
                 "response_format": "wav"],
            ] {
                let status = try await client.speech(fields).status
                #expect(status == .ok)
            }
        }
        let controls = await backend.probe.requests.map(\.controls)
        #expect(controls.map(\.instruction) == [nil, "whisper", nil, nil])
        #expect(controls.map(\.seed) == [nil, 42, nil, nil])
    }

    @Test func ssmlIsDetectedOrFlagged() async throws {
        let backend = FakeSpeechBackend()
        try await withServer(backend) { client in
            _ = try await client.speech(["model": "tts-1", "input": "  <speak>Hi.</speak>", "response_format": "wav"])
            _ = try await client.speech(["model": "tts-1", "input": "<p>Hi.</p>", "ssml": true, "response_format": "wav"])
            _ = try await client.speech(["model": "tts-1", "input": "<speak>x</speak>", "ssml": false, "response_format": "wav"])
        }
        #expect(await backend.probe.requests.map(\.isSSML) == [true, true, false])
    }

    @Test func sseCarriesAudioAndTimings() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": threeSentences, "voice": "test-voice",
                                                    "response_format": "wav", "stream_format": "sse"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream")
            let events = try String(decoding: Data(buffer: response.body), as: UTF8.self)
                .components(separatedBy: "\n\n").filter { !$0.isEmpty }
                .map { line in
                    #expect(line.hasPrefix("data: "))
                    return try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
                }
            let types = events.compactMap { $0["type"] as? String }
            #expect(types.filter { $0 == "speech.sentence" }.count == 3)
            #expect(types.filter { $0 == "speech.word" }.count == 3)
            #expect(types.last == "speech.audio.done")
            let sentences = events.filter { $0["type"] as? String == "speech.sentence" }
            #expect(sentences.map { $0["text"] as? String } == ["One two", " Three four", " Five six"])
            // Times are absolute: each sentence starts 0.2 s after the previous (exact to 1e-9).
            let times = sentences.compactMap { $0["time"] as? Double }
            #expect(zip(times, [0, 0.2, 0.4]).allSatisfy { abs($0 - $1) < 1e-9 })
            let words = events.filter { $0["type"] as? String == "speech.word" }
            #expect(words.first?["text"] as? String == "One two")
            #expect(words.first?["estimated"] as? Bool == false)
            let audio = events.filter { $0["type"] as? String == "speech.audio.delta" }
                .compactMap { ($0["audio"] as? String).flatMap { Data(base64Encoded: $0) } }
                .reduce(Data(), +)
            let file = try WAVDecoder.decode(audio)
            #expect(file.audio.frameCount == 3 * 4410)
            let done = try #require(events.last)
            #expect(abs((done["duration"] as? Double ?? 0) - 0.6) < 1e-9)
            #expect(done["sample_rate"] as? Int == 22050)
        }
    }

    @Test func failureAfterTheStartEndsAnSSEStreamWithAnErrorEvent() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": "Fine. LATE failure.", "response_format": "pcm",
                                                    "stream_format": "sse"])
            #expect(response.status == .ok)
            let text = String(decoding: Data(buffer: response.body), as: UTF8.self)
            #expect(text.contains(#""type":"error""#))
            #expect(text.contains("failed late"))
            #expect(!text.contains("speech.audio.done"))
        }
    }

    @Test func failureAfterTheStartCutsARawAudioStream() async throws {
        let server = SpeechServer(backend: FakeSpeechBackend())
        let app = Application(router: server.makeRouter())
        _ = try await app.test { client in
            // The router test client reports a body writer that throws as an error (a real client
            // sees the connection close before the last chunk).
            await #expect(throws: (any Error).self) {
                _ = try await client.speech(["model": "tts-1", "input": "Fine. LATE failure.", "response_format": "wav"])
            }
        }
        #expect(await server.admission.counters.failed == 1)
        #expect(await server.admission.active == 0)
    }
}
