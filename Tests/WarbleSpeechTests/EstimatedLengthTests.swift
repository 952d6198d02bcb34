import Foundation
import Testing
import WarbleSpeech

/// A model that learns its utterance's length only when it stops (CosyVoice 3 writes speech tokens
/// until it does) streams without announcing a length; one whose length is exact announces it.
@Suite struct EstimatedLengthTests {
    /// Three pieces of 100 samples; `totalSamples` says 250 (an estimate) until the last piece is out.
    final class GrowingRendering: UtteranceRendering, @unchecked Sendable {
        let exact: Bool
        private var handed = 0
        init(exact: Bool) { self.exact = exact }
        var totalSamples: Int { exact || handed == 3 ? 300 : 250 }
        var lengthIsExact: Bool { exact || handed == 3 }
        var wordWeights: [Int] { [] }
        var isFinished: Bool { handed == 3 }
        func nextPiece(cancel: CancellationToken) throws -> [Float] {
            handed += 1
            return [Float](repeating: 0.25, count: 100)
        }
    }

    struct PieceRenderer: UtteranceRenderer {
        let exact: Bool
        var fastestRate: Double = 4
        var modelID: String { "pieces" }
        var sampleRate: Int { 1000 }
        var voices: [VoiceDescription] { [VoiceDescription(id: "p", displayName: "P", language: "en-US", model: "pieces", sampleRate: 1000)] }
        var defaultVoice: String { "p" }
        var language: String { "en-US" }
        var chunkCharacters: Int { 100 }
        func render(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> RenderedUtterance {
            RenderedUtterance(samples: [Float](repeating: 0.25, count: 300), wordWeights: [])
        }
        func begin(_ utterance: Utterance, voice: RenderVoice, rate: Double, cancel: CancellationToken) throws -> any UtteranceRendering {
            GrowingRendering(exact: exact)
        }
    }

    @Test(arguments: [true, false])
    func aLengthIsAnnouncedOnlyWhenItIsExact(_ exact: Bool) async throws {
        var chunks: [AudioChunk] = []
        for try await chunk in StreamingSynthesizer(renderer: PieceRenderer(exact: exact)).synthesize(SynthesisRequest(text: "Hello.")) {
            chunks.append(chunk)
        }
        #expect(chunks.reduce(0) { $0 + $1.samples.count } == 300)
        #expect(chunks.first?.requestFrames == (exact ? 300 : nil))
        #expect(chunks.dropFirst().allSatisfy { $0.requestFrames == nil })
    }

    /// Faster than the model can speak (the server's `speed` 4 on a model whose fastest is 1): the time
    /// stretcher's output length is announced, and it is what comes.
    @Test func aStretchedUtteranceAnnouncesItsStretchedLength() async throws {
        var chunks: [AudioChunk] = []
        let renderer = PieceRenderer(exact: true, fastestRate: 1)
        for try await chunk in StreamingSynthesizer(renderer: renderer).synthesize(SynthesisRequest(text: "Hello.", rate: 4)) {
            chunks.append(chunk)
        }
        let total = chunks.reduce(0) { $0 + $1.samples.count }
        #expect(total < 300)
        #expect(chunks.first?.requestFrames == total)
    }
}
