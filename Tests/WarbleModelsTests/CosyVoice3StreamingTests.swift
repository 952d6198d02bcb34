import Foundation
import ONNXRuntime
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// Streaming inside an utterance as the reference's `tts(stream=True)` does (tools/cosyvoice3/
/// reference.py `stream`): the same chunks (offsets, hops 25 → 50 → 100, tokens used, final chunk),
/// each chunk's audio, and the concatenation equal to the one-shot audio where the reference's is.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime, .serialized) struct CosyVoice3StreamingTests {
    @Test(arguments: ["fp32", "fp16"])
    func chunksMatchTheReferencesStream(variant: String) throws {
        let model = try CosyVoice3TestFixtures.model(variant)
        let info = try CosyVoice3TestFixtures.json("stream_\(variant).json")
        let chunks = try #require(info["chunks"] as? [[String: Any]])
        let golden = try CosyVoice3TestFixtures.llmCases(variant)[0]
        let request = try model.request(text: golden.text, voice: try CosyVoice3TestFixtures.voice(), seed: golden.seed,
                                        noise: try CosyVoice3TestFixtures.noise())
        let rendering = CosyVoice3Rendering(model: model, request: request, wordWeights: [1])
        var pieces: [[Float]] = []
        var completeAfterFirst = true
        while !rendering.isFinished {
            pieces.append(try rendering.nextPiece(cancel: CancellationToken()))
            if pieces.count == 1 { completeAfterFirst = rendering.tokensAreComplete }
        }
        #expect(!completeAfterFirst, "the first audio came before the LLM had finished the utterance")
        #expect(rendering.tokens == golden.filteredTokens)
        #expect(pieces.count == chunks.count)
        let tolerance: Float = variant == "fp32" ? 1e-3 : 2e-3
        for (index, (chunk, expected)) in zip(rendering.chunks, chunks).enumerated() {
            #expect(chunk.tokenOffset == expected["token_offset"] as? Int, "chunk \(index)")
            #expect(chunk.finalize == expected["finalize"] as? Bool, "chunk \(index)")
            #expect(chunk.tokensUsed == expected["tokens_used"] as? Int, "chunk \(index)")
            if let hop = expected["hop"] as? Int { #expect(chunk.hop == hop, "chunk \(index)") }
            #expect(chunk.samples == expected["samples"] as? Int, "chunk \(index)")
            let audio = try CosyVoice3TestFixtures.floats(try #require(expected["file"] as? String))
            #expect(pieces[index].count == audio.count)
            let diff = CosyVoice3TestFixtures.maxAbsDiff(pieces[index][...], audio[...])
            #expect(diff < tolerance, "\(variant) chunk \(index): max abs diff \(diff)")
        }
        // Equal to the one-shot audio where the reference's stream is.
        let whole = pieces.flatMap { $0 }
        #expect(whole.count == rendering.totalSamples && whole.count == 960 * golden.filteredTokens.count)
        let oneShot = try CosyVoice3TestFixtures.floats("hift_\(variant)_audio.f32")
        let equal = try #require(info["audio_equal_prefix"] as? Int)
        #expect(equal > 0)
        let diff = CosyVoice3TestFixtures.maxAbsDiff(whole[..<equal], oneShot[..<equal])
        #expect(diff < tolerance, "\(variant): streamed vs one-shot over the first \(equal) samples: \(diff)")
    }

    /// `begin` streams (the first piece is a chunk, not the whole utterance), and the pieces add up to
    /// what `render` gives in length (the same tokens: same seed).
    @Test func beginStreamsAndAddsUpToTheUtterance() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let text = try CosyVoice3TestFixtures.llmCases("fp32")[0].text
        let utterance = Utterance(text: text, language: "en", sourceRange: 0..<text.utf8.count, words: [], endsSentence: true)
        let voice = try CosyVoice3TestFixtures.voice()
        let rendering = try model.begin(utterance, voice: voice, rate: 1, cancel: CancellationToken())
        #expect(rendering is CosyVoice3Rendering)
        let estimate = rendering.totalSamples
        var pieces: [[Float]] = []
        while !rendering.isFinished { pieces.append(try rendering.nextPiece(cancel: CancellationToken())) }
        let whole = try model.render(utterance, voice: voice, rate: 1, cancel: CancellationToken())
        #expect(pieces.count > 1 && pieces[0].count < whole.samples.count)
        #expect(pieces.reduce(0) { $0 + $1.count } == whole.samples.count)
        #expect(rendering.totalSamples == whole.samples.count)
        #expect(estimate > 0)
    }

    @Test func cancellingAStreamStopsIt() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let golden = try CosyVoice3TestFixtures.llmCases("fp32")[0]
        let request = try model.request(text: golden.text, voice: try CosyVoice3TestFixtures.voice(), seed: golden.seed)
        let rendering = CosyVoice3Rendering(model: model, request: request, wordWeights: [1])
        let cancel = CancellationToken()
        _ = try rendering.nextPiece(cancel: cancel)
        cancel.cancel()
        #expect(throws: (any Error).self) { _ = try rendering.nextPiece(cancel: cancel) }
        #expect(rendering.tokens.count < golden.filteredTokens.count)
    }
}
