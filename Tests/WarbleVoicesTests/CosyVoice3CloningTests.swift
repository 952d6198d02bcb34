import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech
import WarbleTestSupport

/// CosyVoice 3 through the engine, on tools/cosyvoice3's synthetic graphs (the real weights cannot be
/// had here) installed beside the real Silero VAD: `addVoice` runs the family's voice encoder on a
/// clip and its transcript, and the voice speaks 24 kHz audio of whole speech tokens (960 samples each).
@Suite(.needs(fixtures: "cosyvoice3"), .needs(model: "silero-vad"), .needs(model: "speaker-dvector"), .needsRuntime, .serialized)
struct CosyVoice3CloningTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/cosyvoice3/repo")

    /// A WARBLE_HOME whose models are links to the installed VAD and speaker embedder, and the fixture
    /// repository installed as `cosyvoice3` (its files linked, a manifest written).
    func engine() throws -> Engine {
        try InstalledVoices.engine(withFixture: "cosyvoice3", as: "cosyvoice3", family: "cosyvoice3", languages: ["zh", "en"],
                                   variant: "fp32", marker: "campplus.onnx")
    }

    @Test(.needs(model: "piper-en_US-joe-medium")) func aVoiceClonedFromAClipAndItsTranscriptSpeaksWholeTokens() async throws {
        let engine = try engine()
        let speech = try await CloneClipTests.speech()
        let clip = try SoundFile.encode(speech, format: .wav16)
        let transcript = "The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, every single morning."

        await #expect { try await engine.addVoice(VoiceCloneRequest(name: "cosy", clip: clip, clipName: "joe.wav", model: "cosyvoice3")) } throws: {
            "\($0)".contains("transcript")
        }
        let result = try await engine.addVoice(VoiceCloneRequest(name: "cosy", clip: clip, clipName: "joe.wav", model: "cosyvoice3",
                                                                 transcript: transcript, consent: "a synthetic voice"))
        #expect(result.profile.model == "cosyvoice3" && result.profile.family == "cosyvoice3" && result.search == nil)
        guard case let .speakerPrompt(embedding, tokens, mel, said) = result.profile.conditioning else {
            Issue.record("a CosyVoice 3 voice holds a speaker prompt, not \(result.profile.conditioning.kind)")
            return
        }
        #expect(embedding.shape == [192] && said == transcript)
        #expect(!tokens.isEmpty && mel.shape == [2 * tokens.count, 80])
        #expect(result.profile.source?.transcript == transcript)

        #expect(await engine.voices.contains { $0.id == "cosy" && $0.model == "cosyvoice3" })
        let chunks = try await collect(engine.synthesize(SynthesisRequest(text: "Good morning!", voice: "cosy")))
        let samples = chunks.flatMap(\.samples)
        #expect(chunks.first?.sampleRate == 24_000 && samples.count > 0 && samples.count % 960 == 0)
        #expect(samples.allSatisfy { abs($0) <= 0.99 })
    }
}

extension CosyVoice3CloningTests {
    static var seedApp: URL { fixtures.deletingLastPathComponent().appendingPathComponent("seedapp") }

    /// A voice in the seed iOS app's four files is imported as a library voice and speaks.
    @Test func aSeedAppVoiceIsImportedAndSpeaks() async throws {
        let engine = try engine()
        let profile = try await engine.importSeedAppVoice(directory: Self.seedApp, name: "seed-voice")
        #expect(profile.model == "cosyvoice3" && profile.family == "cosyvoice3" && profile.source == nil)
        guard case let .speakerPrompt(embedding, tokens, mel, transcript) = profile.conditioning else {
            Issue.record("the import holds \(profile.conditioning.kind)")
            return
        }
        let text = try String(contentsOf: Self.seedApp.appendingPathComponent("prompt_text.txt"), encoding: .utf8)
        #expect(embedding.shape == [192] && mel.shape == [2 * tokens.count, 80] && transcript == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(await engine.voices.contains { $0.id == "seed-voice" && $0.model == "cosyvoice3" })
        let samples = try await collect(engine.synthesize(SynthesisRequest(text: "Good morning!", voice: "seed-voice"))).flatMap(\.samples)
        #expect(samples.count > 0 && samples.count % 960 == 0)

        // Clear errors: a taken name, a stock-voice name, a bad name, an unknown model, a missing file.
        await #expect { try await engine.importSeedAppVoice(directory: Self.seedApp, name: "seed-voice") } throws: {
            "\($0)".contains("already")
        }
        _ = try await engine.importSeedAppVoice(directory: Self.seedApp, name: "seed-voice", replacing: true)
        await #expect { try await engine.importSeedAppVoice(directory: Self.seedApp, name: "bad name") } throws: {
            "\($0)".contains("not a usable voice name")
        }
        await #expect { try await engine.importSeedAppVoice(directory: Self.seedApp, name: "x", model: "kokoro") } throws: {
            "\($0)".contains("not an installed CosyVoice 3 model") && "\($0)".contains("cosyvoice3")
        }
        let partial = FileManager.default.temporaryDirectory.appendingPathComponent("seedapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: partial) }
        for name in ["speaker_embedding.bin", "prompt_tokens.bin", "prompt_text.txt"] {
            try FileManager.default.copyItem(at: Self.seedApp.appendingPathComponent(name), to: partial.appendingPathComponent(name))
        }
        await #expect { try await engine.importSeedAppVoice(directory: partial, name: "partial") } throws: {
            "\($0)".contains("prompt_mel.bin is missing")
        }
        #expect(await !engine.voices.contains { $0.id == "partial" })
    }

    /// The request's seed and CosyVoice 3's modes reach the model through the engine; Kokoro-style
    /// refusals are clear.
    @Test func seedAndModesReachTheModelThroughTheEngine() async throws {
        let engine = try engine()
        _ = try await engine.importSeedAppVoice(directory: Self.seedApp, name: "seeded")
        func speak(_ controls: VoiceControls) async throws -> [Float] {
            try await collect(engine.synthesize(SynthesisRequest(text: "Good morning!", voice: "seeded", controls: controls))).flatMap(\.samples)
        }
        let plain = try await speak(.init())
        #expect(try await speak(.init(seed: 1986)) == plain, "no seed is the model's seed")
        #expect(try await speak(.init(seed: 5)) != plain)
        #expect(try await speak(.init(instruction: "Speak slowly.")) != plain)
        #expect(await engine.acceptsInstructions(voice: "seeded"))
        await #expect { try await speak(.init(noiseScale: 0.3)) } throws: { "\($0)".contains("no speaker, noise or length scale") }
    }
}
