import WarbleSpeech
import Foundation
import Testing
import WarbleAudio
@testable import WarbleModels
import WarbleTestSupport

/// Token-for-token parity with faster-whisper 1.2.1 (fixtures by tools/whisper/make_fixtures.py):
/// beam 1, temperature 0, no timestamps, no previous-text conditioning. Tolerance: none (identical ids).
@Suite("Whisper greedy parity with faster-whisper", .needs(fixtures: "whisper"), .needs(model: "whisper-tiny.en"),
       .needs(model: "whisper-base"), .needsRuntime, .serialized)
struct WhisperParityTests {
    static let cases: [(model: String, clip: String)] = [
        ("whisper-tiny.en", "en_fox"), ("whisper-tiny.en", "en_weather"), ("whisper-tiny.en", "en_numbers"),
        ("whisper-base", "en_fox"), ("whisper-base", "en_weather"), ("whisper-base", "en_numbers"),
        ("whisper-base", "de_wetter"),
    ]

    @Test(arguments: cases)
    func greedyTokens(model id: String, clip: String) async throws {
        let index = try WhisperFixtures.whisperIndex()
        guard let expected = index.object("models")?.object(id)?.object("clips")?.object(clip)?.object("greedy"),
              let tokens = expected["tokens"] as? [Int]
        else { throw WhisperFixtures.Missing(what: "greedy fixture \(id)/\(clip)") }
        let model = try WhisperFixtures.model(id)
        let audio = try WhisperFixtures.clip(WhisperFixtures.whisperDirectory, "\(clip).wav")
        let language = model.configuration.multilingual ? expected["language"] as? String : nil
        let segments = try await WhisperRecognizer(model: model).transcribeAll(audio, options: WhisperFixtures.greedyOptions(language))
        let got = segments.flatMap(\.tokens)
        #expect(got == tokens, "\(id) \(clip): got \(model.text(of: got)) expected \(expected["text"] ?? "")")
        #expect(segments.map(\.text).joined().trimmingCharacters(in: .whitespaces) == expected["text"] as? String)
    }
}
