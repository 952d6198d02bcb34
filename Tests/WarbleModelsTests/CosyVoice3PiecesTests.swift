import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels
import WarbleTestSupport

/// An utterance longer than the authors' pieces (60–80 tokens) is spoken piece by piece, each piece a
/// request of its own, as the reference's `tts` loops over `text_normalize(..., split=True)`.
@Suite(.needs(fixtures: "cosyvoice3"), .needsRuntime) struct CosyVoice3PiecesTests {
    static let text = "The quick brown fox jumps over the lazy dog, and then it runs far away into the green forest. "
        + "Later that evening, the tired fox came home again, sat down by the warm fire, and told every story of the day. "
        + "Nobody in the little house believed a single word of it, but they all listened until the fire went out."

    @Test func aLongUtteranceIsSpokenPieceByPiece() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let voice = try CosyVoice3TestFixtures.voice()
        let pieces = try model.textFrontEnd.pieces(Self.text)
        #expect(pieces.count >= 2, "\(pieces.count) pieces of \(pieces.map { model.tokenizer.encode($0, addSpecialTokens: false).count }) tokens")
        let requests = try model.requests(text: Self.text, voice: voice)
        #expect(requests.map(\.ttsTextIDs) == pieces.map { model.tokenizer.encode($0, addSpecialTokens: false) })

        // One-shot: each piece's audio in turn, each a whole number of tokens.
        let utterance = Utterance(text: Self.text, language: "en", sourceRange: 0..<Self.text.utf8.count, words: [], endsSentence: true)
        let whole = try model.render(utterance, voice: voice, rate: 1, cancel: CancellationToken()).samples
        var expected: [Float] = []
        for request in requests {
            var generation = request.generation(model.llm)
            let tokens = try generation.all(cancel: CancellationToken())
            let audio = try model.audio(tokens: tokens, request: request, cancel: CancellationToken())
            #expect(!audio.isEmpty && audio.count % 960 == 0)
            expected += audio
        }
        #expect(whole == expected)

        // Streamed: the pieces' streams one after the other, as long as the one-shot audio; the length
        // is an estimate until every piece's LLM has stopped, then exact.
        let rendering = try model.begin(utterance, voice: voice, rate: 1, cancel: CancellationToken())
        #expect(rendering is PieceSequenceRendering && !rendering.lengthIsExact)
        var streamed: [Float] = []
        var pieceCount = 0
        while !rendering.isFinished {
            streamed += try rendering.nextPiece(cancel: CancellationToken())
            pieceCount += 1
        }
        #expect(rendering.lengthIsExact && rendering.totalSamples == streamed.count)
        #expect(streamed.count == whole.count && pieceCount > requests.count)
    }

    /// (Punctuation with spaces between is spoken, as the authors' `^[\p{P}\p{S}]*$` test lets it through.)
    @Test func textWithNothingToSayIsAClearError() throws {
        let model = try CosyVoice3TestFixtures.model("fp32")
        let voice = try CosyVoice3TestFixtures.voice()
        for text in ["", "   ", "?!…"] {
            #expect { try model.requests(text: text, voice: voice) } throws: { "\($0)".contains("nothing to say") }
        }
    }
}
