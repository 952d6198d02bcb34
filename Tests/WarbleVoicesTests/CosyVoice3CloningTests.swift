import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech

/// CosyVoice 3 through the engine, on tools/cosyvoice3's synthetic graphs (the real weights cannot be
/// had here) installed beside the real Silero VAD: `addVoice` runs the family's voice encoder on a
/// clip and its transcript, and the voice speaks 24 kHz audio of whole speech tokens (960 samples each).
@Suite(.serialized) struct CosyVoice3CloningTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/cosyvoice3/repo")

    /// A WARBLE_HOME whose models are links to the installed VAD and speaker embedder, and the fixture
    /// repository installed as `cosyvoice3` (its files linked, a manifest written).
    func engine() throws -> Engine {
        guard FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent("campplus.onnx").path) else {
            Issue.record("no CosyVoice 3 fixtures: run .venv/bin/python tools/cosyvoice3/make_fixtures.py Tests/Fixtures/generated/cosyvoice3")
            throw CancellationError()
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-cosy-\(UUID().uuidString)")
        let models = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for id in ["silero-vad", "speaker-dvector"] {
            try FileManager.default.createSymbolicLink(at: models.appendingPathComponent(id), withDestinationURL: try InstalledVoices.model(id).directory)
        }
        let cosy = models.appendingPathComponent("cosyvoice3")
        try FileManager.default.createDirectory(at: cosy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path) {
            try FileManager.default.createSymbolicLink(at: cosy.appendingPathComponent(name), withDestinationURL: Self.fixtures.appendingPathComponent(name))
        }
        let manifest = ModelManifest(id: "cosyvoice3", family: "cosyvoice3", licence: "Apache-2.0 (synthetic test graphs)", source: "fixture",
                                     sampleRate: 24_000, languages: ["zh", "en"], voices: [], files: [], config: .object(["variant": .string("fp32")]))
        try JSONEncoder().encode(manifest).write(to: cosy.appendingPathComponent("manifest.json"))
        return Engine(store: ModelStore(home: home), phonemizer: EspeakPhonemizer(),
                      configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 1))
    }

    @Test func aVoiceClonedFromAClipAndItsTranscriptSpeaksWholeTokens() async throws {
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
