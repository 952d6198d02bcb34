import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// CosyVoice 3's three ways of prompting the LLM (the authors' `frontend_zero_shot`,
/// `frontend_cross_lingual`, `frontend_instruct2`), the per-request seed, and the settings it refuses.
/// The flow always gets the voice's prompt tokens and mel, so every mode speaks in the clip's voice.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime) struct CosyVoice3ModesTests {
    static let text = "Good morning! How are you doing today?"

    static func voice(_ controls: VoiceControls) throws -> RenderVoice {
        var voice = try CosyVoice3TestFixtures.voice()
        voice.controls = controls
        return voice
    }

    static func transcript(_ voice: RenderVoice) -> String {
        if case .speakerPrompt(_, _, _, let transcript) = voice.conditioning { return transcript }
        return ""
    }

    @Test func zeroShotPromptsTheLLMWithTheClipsWordsAndSpeech() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let voice = try Self.voice(.init())
        let request = try model.request(text: Self.text, voice: voice)
        #expect(CosyVoice3Model.mode(.init(), text: Self.text) == .zeroShot)
        #expect(request.promptTextIDs == model.tokenizer.encode("You are a helpful assistant.<|endofprompt|>" + Self.transcript(voice),
                                                                addSpecialTokens: false))
        #expect(request.promptTextIDs.contains(151646))
        #expect(request.llmPromptTokens == request.prompt.tokens && !request.llmPromptTokens.isEmpty)
        // The LLM's input: SOS, the prompt's and the text's ids, TASK, the prompt's speech tokens.
        let input = try model.llm.promptInput(text: request.promptTextIDs + request.ttsTextIDs, promptTokens: request.llmPromptTokens,
                                              options: nil)
        #expect(input.count == 1 + request.promptTextIDs.count + request.ttsTextIDs.count + 1 + request.prompt.tokens.count)
    }

    @Test func crossLingualKeepsTheClipOutOfTheLLM() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let request = try model.request(text: Self.text, voice: try Self.voice(.init(crossLingual: true)))
        #expect(request.promptTextIDs.isEmpty && request.llmPromptTokens.isEmpty)
        // The authors' form: the TTS text itself holds the system prompt and <|endofprompt|>.
        #expect(request.ttsTextIDs == model.tokenizer.encode("You are a helpful assistant.<|endofprompt|>" + Self.text, addSpecialTokens: false))
        #expect(!request.prompt.tokens.isEmpty, "the flow still gets the voice's prompt")
        let input = try model.llm.promptInput(text: request.ttsTextIDs, promptTokens: [], options: nil)
        #expect(input.count == 1 + request.ttsTextIDs.count + 1)

        // Text that holds <|endofprompt|> is cross-lingual as written, without a second system prompt.
        let written = "You are a helpful assistant.<|endofprompt|>Bonjour."
        #expect(CosyVoice3Model.mode(.init(), text: written) == .crossLingual)
        let asWritten = try model.request(text: written, voice: try Self.voice(.init()))
        #expect(asWritten.ttsTextIDs == model.tokenizer.encode(written, addSpecialTokens: false))
        #expect(asWritten.ttsTextIDs.filter { $0 == 151646 }.count == 1 && asWritten.llmPromptTokens.isEmpty)
    }

    @Test func instructModeMakesTheInstructionThePromptText() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let request = try model.request(text: Self.text, voice: try Self.voice(.init(instruction: "Speak slowly and warmly.")))
        #expect(request.promptTextIDs
            == model.tokenizer.encode("You are a helpful assistant. Speak slowly and warmly.<|endofprompt|>", addSpecialTokens: false))
        #expect(request.ttsTextIDs == model.tokenizer.encode(Self.text, addSpecialTokens: false))
        #expect(request.llmPromptTokens.isEmpty && !request.prompt.tokens.isEmpty)
    }

    /// Every mode renders whole tokens of audio (960 samples each), and the modes differ.
    @Test func everyModeSpeaks() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let utterance = Utterance(text: Self.text, language: "en", sourceRange: 0..<38, words: [], endsSentence: true)
        var outputs: [[Float]] = []
        for controls in [VoiceControls(), VoiceControls(crossLingual: true), VoiceControls(instruction: "Speak slowly.")] {
            try model.validate(controls)
            let samples = try model.render(utterance, voice: try Self.voice(controls), rate: 1, cancel: CancellationToken()).samples
            #expect(!samples.isEmpty && samples.count % 960 == 0, "\(controls): \(samples.count) samples")
            outputs.append(samples)
        }
        #expect(outputs[0] != outputs[1] && outputs[0] != outputs[2] && outputs[1] != outputs[2])
    }

    /// The seed decides the draws and the noise: the same seed gives the same audio, another seed other audio.
    @Test func theRequestsSeedDecidesTheAudio() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let utterance = Utterance(text: Self.text, language: "en", sourceRange: 0..<38, words: [], endsSentence: true)
        func render(_ seed: UInt64?) throws -> [Float] {
            try model.render(utterance, voice: try Self.voice(.init(seed: seed)), rate: 1, cancel: CancellationToken()).samples
        }
        let defaultSeed = try render(nil)
        #expect(try render(model.seed) == defaultSeed, "no seed is the model's seed (\(model.seed))")
        let seven = try render(7)
        #expect(try render(7) == seven)
        #expect(seven != defaultSeed)
        let request = try model.request(text: Self.text, voice: try Self.voice(.init(seed: 7)))
        #expect(request.seed == 7)
    }

    @Test func settingsItDoesNotHaveAreRefusedClearly() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        for controls in [VoiceControls(speaker: "1"), VoiceControls(noiseScale: 0.5), VoiceControls(lengthScale: 2), VoiceControls(noiseW: 0.1)] {
            #expect { try model.validate(controls) } throws: { ($0 as? ModelError)?.message.contains("no speaker, noise or length scale") == true }
        }
        let refused: [(VoiceControls, String)] = [
            (VoiceControls(instruction: "  "), "empty"),
            (VoiceControls(instruction: String(repeating: "a", count: 501)), "at most 500"),
            (VoiceControls(instruction: "Be <|endofprompt|> loud"), "special tokens"),
            (VoiceControls(instruction: "Loud.", crossLingual: true), "cannot be combined"),
        ]
        for (controls, message) in refused {
            #expect { try model.validate(controls) } throws: { ($0 as? ModelError)?.message.contains(message) == true }
        }
        // Settings change the cache key, so a cached chunk of another seed or mode is never reused.
        let keys = Set([VoiceControls(), VoiceControls(seed: 1), VoiceControls(seed: 2), VoiceControls(crossLingual: true),
                        VoiceControls(instruction: "a/b"), VoiceControls(instruction: "a"), VoiceControls(seed: 1, instruction: "a")]
            .map { RenderVoice(id: "v", controls: $0).cacheKey })
        #expect(keys.count == 7)
    }
}
