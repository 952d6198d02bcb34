import WarbleSpeech

/// An utterance spoken as several requests of its own, streamed one after another: CosyVoice 3's
/// 60–80-token pieces (as the reference's `tts` loops over `text_normalize(..., split=True)`), and the
/// parts of a long NeuTTS utterance that each fit the backbone's context. Its length is exact once
/// every part's length is.
final class PieceSequenceRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    let parts: [any UtteranceRendering]
    let wordWeights: [Int]
    private var current = 0

    init(parts: [any UtteranceRendering], wordWeights: [Int]) {
        self.parts = parts
        self.wordWeights = wordWeights
    }

    var isFinished: Bool { current >= parts.count }
    var lengthIsExact: Bool { parts.allSatisfy(\.lengthIsExact) }
    var totalSamples: Int { parts.reduce(0) { $0 + $1.totalSamples } }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        while current < parts.count {
            let piece = try parts[current].nextPiece(cancel: cancel)
            if parts[current].isFinished { current += 1 }
            if !piece.isEmpty { return piece }
        }
        return []
    }
}
