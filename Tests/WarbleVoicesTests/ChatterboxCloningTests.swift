import Foundation
import Testing
import WarbleAudio
import WarbleEngine
import WarblePhonemes
import WarbleSpeech

/// Chatterbox Turbo through the engine, on tools/chatterbox's synthetic graphs installed beside the
/// real Silero VAD: `addVoice` runs the speech encoder on a clip (no transcript needed), and the voice
/// speaks 24 kHz audio of whole tokens (960 samples each, three of them the closing silence), whole
/// and streamed alike; clips of 5 s or less are refused.
@Suite(.serialized) struct ChatterboxCloningTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/generated/chatterbox/repo")

    func engine() throws -> Engine {
        guard FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent("tokenizer.json").path) else {
            Issue.record("no Chatterbox fixtures: run .venv/bin/python tools/chatterbox/make_fixtures.py Tests/Fixtures/generated/chatterbox")
            throw CancellationError()
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-chatterbox-\(UUID().uuidString)")
        let models = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for id in ["silero-vad", "speaker-dvector"] {
            try FileManager.default.createSymbolicLink(at: models.appendingPathComponent(id), withDestinationURL: try InstalledVoices.model(id).directory)
        }
        let model = models.appendingPathComponent("chatterbox-turbo")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path) {
            try FileManager.default.createSymbolicLink(at: model.appendingPathComponent(name), withDestinationURL: Self.fixtures.appendingPathComponent(name))
        }
        let manifest = ModelManifest(id: "chatterbox-turbo", family: "chatterbox", licence: "MIT (synthetic test graphs)", source: "fixture",
                                     sampleRate: 24_000, languages: ["en"], voices: [], files: [], config: .object(["variant": .string("fp32")]))
        try JSONEncoder().encode(manifest).write(to: model.appendingPathComponent("manifest.json"))
        return Engine(store: ModelStore(home: home), phonemizer: EspeakPhonemizer(),
                      configuration: .init(idleUnloadAfter: nil, cacheBytes: 0, threads: 1))
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

        // A clip of 5 s or less is refused with what is needed.
        let short = AudioBuffer(mono: Array(speech.channels[0].prefix(speech.sampleRate * 4)), sampleRate: speech.sampleRate)
        await #expect { try await engine.addVoice(VoiceCloneRequest(name: "short", clip: try SoundFile.encode(short, format: .wav16),
                                                                    clipName: "short.wav", model: "chatterbox")) } throws: {
            "\($0)".contains("has only 4.0 s of speech") && "\($0)".contains("needs at least 5.0 s")
        }
    }
}
