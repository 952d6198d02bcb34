import Foundation
import Testing
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// Kokoro mixes through the engine: one voice at full weight speaks exactly as that voice, an even mix
/// of two speaks as neither, and the engine names the mix and refuses mixes across models.
@Suite(.needs(model: "kokoro-v1.0-int8"), .needsRuntime, .serialized) struct VoiceMixingTests {
    static let engine = Engine(phonemizer: EspeakPhonemizer(), configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 2))

    func samples(_ voice: String) async throws -> [Float] {
        try await collect(Self.engine.synthesize(SynthesisRequest(text: "Two voices, one sentence.", voice: voice))).flatMap(\.samples)
    }

    @Test func mixesBlendStyleTables() async throws {
        _ = try InstalledVoices.model("kokoro-v1.0-int8")
        let alpha = try await samples("kokoro-jf_alpha")
        let kumo = try await samples("kokoro-jm_kumo")
        #expect(try await samples("jf_alpha(1)") == alpha)
        let mixed = try await samples("jf_alpha+jm_kumo")
        #expect(!mixed.isEmpty && mixed != alpha && mixed != kumo)
        let voice = try await Self.engine.voice("jf_alpha(3)+kokoro-jm_kumo(1)")
        #expect(voice.id == "kokoro-jf_alpha(0.75)+kokoro-jm_kumo(0.25)")
        #expect(voice.model == "kokoro-v1.0-int8" && voice.sampleRate == 24000)
    }

    @Test(.needs(model: "piper-en_US-joe-medium")) func mixesAcrossModelsOrOfUnknownVoicesAreRefused() async throws {
        _ = try InstalledVoices.model("kokoro-v1.0-int8")
        _ = try InstalledVoices.model("piper-en_US-joe-medium")
        await #expect(throws: ModelError.self) { try await Self.engine.voice("jf_alpha+en_US-joe-medium") }
        await #expect(throws: ModelError.self) { try await Self.engine.voice("jf_alpha+nobody") }
        await #expect(throws: ModelError.self) { try await samples("en_US-joe-medium(1)") }
    }
}
