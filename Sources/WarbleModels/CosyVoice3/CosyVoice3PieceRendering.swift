import WarbleSpeech

/// An utterance of several of the authors' text pieces (60–80 tokens each), streamed piece after
/// piece: each piece is a request of its own (`CosyVoice3Rendering`), as the reference's `tts` loops
/// over `text_normalize(..., split=True)`. Its length is exact once every piece's LLM has stopped.
final class CosyVoice3PieceRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    let parts: [CosyVoice3Rendering]
    let wordWeights: [Int]
    private var current = 0

    init(parts: [CosyVoice3Rendering], wordWeights: [Int]) {
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
