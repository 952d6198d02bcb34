import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// `rate` means what it says: the audio of a text (pauses between sentences and clauses included) is
/// 1/rate as long as at rate 1, within 10 %, for both families, from 0.5 to 3 (above 2 the models speak
/// at 2 and WSOLA time stretching does the rest).
@Suite(.serialized) struct SpeakingRateTests {
    static let engine = Engine(phonemizer: EspeakPhonemizer(), configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 2))
    static let text = "The quick brown fox jumps over the lazy dog. Then it runs into the forest, where nobody can find it again."

    /// Piper's noise scales are 0 here: its durations are otherwise random from run to run (noise_w),
    /// by several per cent, and the comparison would measure the dice, not the rate.
    func seconds(voice: String, rate: Double) async throws -> Double {
        let controls = voice.hasPrefix("kokoro") ? VoiceControls() : VoiceControls(noiseScale: 0, noiseW: 0)
        let chunks = try await collect(Self.engine.synthesize(SynthesisRequest(text: Self.text, voice: voice, rate: rate,
                                                                               controls: controls)))
        return Double(chunks.reduce(0) { $0 + $1.samples.count }) / Double(chunks.first?.sampleRate ?? 1)
    }

    @Test(.needs(model: "piper-en_US-joe-medium"), .needs(model: "kokoro-v1.0-int8"), .needsRuntime,
          arguments: ["en_US-joe-medium", "kokoro-jm_kumo"])
    func durationFollowsTheRate(voice: String) async throws {
        _ = try InstalledVoices.model(voice.hasPrefix("kokoro") ? "kokoro-v1.0-int8" : "piper-en_US-joe-medium")
        let natural = try await seconds(voice: voice, rate: 1)
        for rate in [0.5, 0.75, 1.5, 2, 2.5, 3] {
            let measured = natural / (try await seconds(voice: voice, rate: rate))
            #expect(abs(measured / rate - 1) <= 0.1, "\(voice) at rate \(rate): \(String(format: "%.2f", measured))×")
        }
    }
}
