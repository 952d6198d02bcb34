import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// Chatterbox Turbo through the engine, on tools/chatterbox's synthetic graphs installed beside the
/// real Silero VAD: `addVoice` runs the speech encoder on a clip (no transcript needed), and the voice
/// speaks 24 kHz audio of whole tokens (960 samples each, three of them the closing silence), whole
/// and streamed alike; clips of 5 s or less are refused.
@Suite(.needs(fixtures: "chatterbox"), .needs(model: "silero-vad"), .needs(model: "speaker-dvector"),
       .needs(model: "piper-en_US-joe-medium"), .needsRuntime, .serialized)
struct ChatterboxCloningTests {
    func engine() throws -> Engine {
        try InstalledVoices.engine(withFixture: "chatterbox", as: "chatterbox-turbo", family: "chatterbox", languages: ["en"],
                                   variant: "fp32", marker: "tokenizer.json")
    }

    @Test func aVoiceClonedFromAClipSpeaksWholeTokens() async throws {
        let engine = try engine()
        let speech = try await CloneClipTests.speech()
        let clip = try SoundFile.encode(speech, format: .wav16)
        let result = try await engine.addVoice(VoiceCloneRequest(name: "box", clip: clip, clipName: "joe.wav", model: "chatterbox",
                                                                 consent: "a synthetic voice"))
        #expect(result.profile.model == "chatterbox-turbo" && result.profile.family == "chatterbox" && result.search == nil)
        guard case .encoderOutputs(let outputs) = result.profile.conditioning else {
            Issue.record("a Chatterbox voice holds the speech encoder's outputs, not \(result.profile.conditioning.kind)")
            return
        }
        #expect(Set(outputs.keys) == ["audio_features", "audio_tokens", "speaker_embeddings", "speaker_features"])
        #expect(await engine.voices.contains { $0.id == "box" && $0.model == "chatterbox-turbo" })

        let chunks = try await collect(engine.synthesize(SynthesisRequest(text: "Good morning to you all.", voice: "box")))
        let samples = chunks.flatMap(\.samples)
        #expect(chunks.first?.sampleRate == 24_000 && samples.count > 3 * 960 && samples.count % 960 == 0)

        // A seed samples as the authors' PyTorch code does: the same seed gives the same audio, and it
        // differs from the greedy decoding; other settings are refused by name.
        func speak(_ controls: VoiceControls) async throws -> [Float] {
            try await collect(engine.synthesize(SynthesisRequest(text: "Good morning to you all.", voice: "box", controls: controls)))
                .flatMap(\.samples)
        }
        let seven = try await speak(.init(seed: 7))
        #expect(try await speak(.init(seed: 7)) == seven && seven != samples && seven.count % 960 == 0)
        await #expect { try await speak(.init(instruction: "Loud.")) } throws: { "\($0)".contains("takes only a seed") }

        // A clip of 5 s or less is refused with what is needed.
        let short = AudioBuffer(mono: Array(speech.channels[0].prefix(speech.sampleRate * 4)), sampleRate: speech.sampleRate)
        await #expect { try await engine.addVoice(VoiceCloneRequest(name: "short", clip: try SoundFile.encode(short, format: .wav16),
                                                                    clipName: "short.wav", model: "chatterbox")) } throws: {
            "\($0)".contains("has only 4.0 s of speech") && "\($0)".contains("needs at least 5.0 s")
        }
    }
}
