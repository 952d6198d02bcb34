import Foundation
import ONNXRuntime
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// CosyVoice 3's flow and HiFT against the Python reference (tools/cosyvoice3/reference.py): the mel
/// of the golden tokens with the golden voice and noise, and the audio HiFT makes of the golden mel,
/// within the README's tolerances (fp32 1e-3, fp16 2e-3); and a whole utterance through the model.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime, .serialized) struct CosyVoice3SynthesisTests {
    static func tolerance(_ variant: String) -> Float { variant == "fp32" ? 1e-3 : 2e-3 }

    @Test(arguments: ["fp32", "fp16"])
    func theFlowsMelMatchesTheReference(variant: String) throws {
        let model = try CosyVoice3TestFixtures.model(variant)
        let info = try CosyVoice3TestFixtures.json("flow_\(variant).json")
        let tokens = try #require(info["tokens"] as? [Int])
        let golden = try CosyVoice3TestFixtures.floats("flow_\(variant)_mel.f32")
        let prompt = try CosyVoice3Prompt(try CosyVoice3TestFixtures.voice().conditioning, voice: "golden")
        let speaker = try model.flow.speaker(prompt.embedding, options: nil)
        let mel = try model.flow.mel(tokens: tokens, prompt: prompt, speaker: speaker, noise: try CosyVoice3TestFixtures.noise(),
                                     finalize: true, options: nil)
        #expect(mel.frames == 2 * tokens.count)
        #expect(mel.values.count == golden.count)
        let diff = CosyVoice3TestFixtures.maxAbsDiff(mel.values[...], golden[...])
        #expect(diff < Self.tolerance(variant), "\(variant) mel max abs diff \(diff)")
    }

    @Test(arguments: ["fp32", "fp16"])
    func hiftsAudioMatchesTheReference(variant: String) throws {
        let model = try CosyVoice3TestFixtures.model(variant)
        let mel = try CosyVoice3TestFixtures.floats("flow_\(variant)_mel.f32")
        let golden = try CosyVoice3TestFixtures.floats("hift_\(variant)_audio.f32")
        let frames = mel.count / 80
        let audio = try model.hift.audio(mel: mel, frames: frames, finalize: true, options: nil)
        #expect(audio.count == 480 * frames && audio.count == golden.count)
        let diff = CosyVoice3TestFixtures.maxAbsDiff(audio[...], golden[...])
        #expect(diff < Self.tolerance(variant), "\(variant) audio max abs diff \(diff)")
        #expect(audio.allSatisfy { abs($0) <= 0.99 })
    }

    /// Text → tokens → mel → audio through `render`, as the engine calls it.
    @Test func anUtteranceRendersAsTheReferencesPipeline() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let golden = try CosyVoice3TestFixtures.llmCases("fp32")[0]
        let request = try model.request(text: golden.text, voice: try CosyVoice3TestFixtures.voice(), seed: golden.seed,
                                        noise: try CosyVoice3TestFixtures.noise())
        var generation = request.generation(model.llm)
        let tokens = try generation.all(cancel: CancellationToken())
        #expect(tokens == golden.filteredTokens)
        let audio = try model.audio(tokens: tokens, request: request, cancel: CancellationToken())
        let reference = try CosyVoice3TestFixtures.floats("hift_fp32_audio.f32")
        #expect(audio.count == reference.count)
        #expect(CosyVoice3TestFixtures.maxAbsDiff(audio[...], reference[...]) < 1e-3)

        // `render` with the model's own seed and noise: 960 samples per token, deterministic.
        let utterance = Utterance(text: "Good morning! How are you doing today?", language: "en", sourceRange: 0..<38, words: [],
                                  endsSentence: true)
        let voice = try CosyVoice3TestFixtures.voice()
        let once = try model.render(utterance, voice: voice, rate: 1, cancel: CancellationToken())
        let twice = try model.render(utterance, voice: voice, rate: 1, cancel: CancellationToken())
        #expect(!once.samples.isEmpty && once.samples.count % 960 == 0)
        #expect(once.samples == twice.samples)
        #expect(once.wordWeights.count == 7)
    }

    @Test func aVoiceWithoutASpeakerPromptIsRefusedClearly() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let utterance = Utterance(text: "Hello.", language: "en", sourceRange: 0..<6, words: [], endsSentence: true)
        do {
            _ = try model.render(utterance, voice: RenderVoice(id: "nobody"), rate: 1, cancel: CancellationToken())
            Issue.record("a voice with no conditioning was rendered")
        } catch let error as ModelError {
            #expect(error.message.contains("no voice 'nobody'"))
        }
        let table = try #require(StoredTensor(shape: [1, 2], values: [0, 0]))
        do {
            _ = try model.render(utterance, voice: RenderVoice(id: "k", conditioning: .styleTable(table)), rate: 1, cancel: CancellationToken())
            Issue.record("a style table was rendered")
        } catch let error as ModelError {
            #expect(error.message.contains("styleTable") && error.message.contains("speaker prompt"))
        }
    }

    @Test func theFamilyIsRegisteredAndLoadsFromAManifest() throws {
        let family = try #require(ModelFamilies.builtIn.family(named: "cosyvoice3"))
        #expect(family.abilities.contains(.synthesis))
        let manifest = ModelManifest(id: "cosyvoice3", family: "cosyvoice3", licence: "Apache-2.0", source: "fixture", sampleRate: 24_000,
                                     languages: ["zh", "en"], voices: [], files: [], config: .object(["variant": .string("fp16")]))
        let loaded = try ModelFamilies.builtIn.load(ModelFiles(manifest: manifest, directory: CosyVoice3TestFixtures.repo),
                                                    context: FamilyContext(phonemizer: nil, sessionOptions: .init(intraOpThreads: 1)))
        let renderer = try #require(loaded.renderer as? CosyVoice3Model)
        #expect(renderer.files.variant == "fp16" && renderer.sampleRate == 24_000 && renderer.language == "en")
    }
}
