import Foundation
import ONNXRuntime
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// CosyVoice 3's LLM loop against the Python reference's tokens (tools/cosyvoice3/reference.py on the
/// synthetic graphs): prefill, decode steps with the stacked KV cache (f16 kept f16), RAS sampling
/// with SplitMix64, min/max length, stop ids and the silence filter — tokens identical.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime, .serialized) struct CosyVoice3LanguageModelTests {
    @Test(arguments: ["fp32", "fp16"])
    func tokensEqualTheReferencesForTheSameSeed(variant: String) throws {
        let model = try CosyVoice3TestFixtures.model(variant)
        let cases = try CosyVoice3TestFixtures.llmCases(variant)
        #expect(cases.count >= 2)
        for golden in cases {
            var generation = model.llm.generation(text: golden.promptTextIDs + golden.ttsTextIDs, ttsTextCount: golden.ttsTextIDs.count,
                                                  promptTokens: golden.promptSpeechTokens, seed: golden.seed)
            #expect(generation.minLength == golden.minLength && generation.maxLength == golden.maxLength, "\(golden.name)")
            let filtered = try generation.all(cancel: CancellationToken())
            #expect(generation.produced == golden.tokens, "\(variant) \(golden.name): sampled tokens")
            #expect(generation.stopID == golden.stopID, "\(variant) \(golden.name): stop id")
            #expect(filtered == golden.filteredTokens, "\(variant) \(golden.name): after the silence filter")
            #expect(generation.isFinished)
        }
    }

    @Test func theFP16BackboneKeepsItsCacheInF16() throws {
        #expect(try CosyVoice3TestFixtures.model("fp16").llm.cacheElementType == .float16)
        #expect(try CosyVoice3TestFixtures.model("fp32").llm.cacheElementType == .float32)
    }

    @Test func theSameSeedGivesTheSameTokensAndAnotherSeedOthers() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let golden = try CosyVoice3TestFixtures.llmCases("fp32")[1]
        func run(_ seed: UInt64) throws -> [Int] {
            var generation = model.llm.generation(text: golden.promptTextIDs + golden.ttsTextIDs, ttsTextCount: golden.ttsTextIDs.count,
                                                  promptTokens: golden.promptSpeechTokens, seed: seed)
            return try generation.all(cancel: CancellationToken())
        }
        let first = try run(golden.seed)
        #expect(first == golden.filteredTokens)
        #expect(try run(golden.seed) == first)
        #expect(try run(golden.seed + 1) != first)
    }

    @Test func theTokenizerGivesTheReferencesIDs() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        for golden in try CosyVoice3TestFixtures.llmCases("fp32") {
            #expect(model.tokenizer.encode(golden.text, addSpecialTokens: false) == golden.ttsTextIDs, "\(golden.name)")
            #expect(model.tokenizer.encode(golden.promptText, addSpecialTokens: false) == golden.promptTextIDs, "\(golden.name)")
        }
        #expect(model.tokenizer.id(for: "<|endofprompt|>") == 151_646)
    }

    /// The tokenizer as the model loads it (vocab.json, merges.txt, tokenizer_config.json's added tokens)
    /// on the reference tokenizer's own cases: spaces, CR/LF, digits, accents, CJK, emoji, special tokens.
    @Test func theTokenizerMatchesTheReferenceTokenizerCaseByCase() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let cases = try CosyVoice3TestFixtures.json("text_ids.json")["cases"] as? [[String: Any]] ?? []
        #expect(cases.count >= 10)
        for c in cases {
            let text = try #require(c["text"] as? String)
            #expect(model.tokenizer.encode(text, addSpecialTokens: false) == c["ids"] as? [Int], "\(text.debugDescription)")
        }
    }

    @Test func aRequestHasThePromptTextThenTheText() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let golden = try CosyVoice3TestFixtures.llmCases("fp32")[0]
        let request = try model.request(text: golden.text, voice: try CosyVoice3TestFixtures.voice(), seed: golden.seed)
        #expect(request.promptTextIDs == golden.promptTextIDs)
        #expect(request.ttsTextIDs == golden.ttsTextIDs)
        #expect(request.prompt.tokens == golden.promptSpeechTokens)
        var generation = request.generation(model.llm)
        #expect(try generation.all(cancel: CancellationToken()) == golden.filteredTokens)
    }

    @Test func theTextIsNormalisedAsTheAuthorsFrontEndDoesUnlessItIsTagged() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let voice = try CosyVoice3TestFixtures.voice()
        let spoken = try model.request(text: "I have 3 cats.", voice: voice)
        #expect(spoken.ttsTextIDs == model.tokenizer.encode("I have three cats.", addSpecialTokens: false))
        let tagged = "You are a helpful assistant.<|endofprompt|>I have 3 cats."
        #expect(try model.request(text: tagged, voice: voice).ttsTextIDs == model.tokenizer.encode(tagged, addSpecialTokens: false))
    }

    @Test func cancellingStopsTheLoopAtOnceAndDropsTheCache() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let golden = try CosyVoice3TestFixtures.llmCases("fp32")[0]
        var generation = model.llm.generation(text: golden.promptTextIDs + golden.ttsTextIDs, ttsTextCount: golden.ttsTextIDs.count,
                                              promptTokens: golden.promptSpeechTokens, seed: golden.seed)
        let cancel = CancellationToken()
        var tokens: [Int] = []
        for _ in 0..<5 { if let token = try generation.next(cancel: cancel) { tokens.append(token) } }
        #expect(tokens == Array(golden.filteredTokens.prefix(5)))
        let steps = generation.steps
        cancel.cancel()
        #expect(throws: CancellationError.self) { _ = try generation.next(cancel: cancel) }
        #expect(generation.steps == steps, "no LLM step ran after the cancel")
        #expect(generation.isFinished && !generation.holdsCache)
        #expect(try generation.next(cancel: CancellationToken()) == nil, "a cancelled loop stays stopped")
    }
}
