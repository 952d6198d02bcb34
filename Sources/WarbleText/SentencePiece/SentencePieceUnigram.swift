/// The unigram model's best segmentation (unigram_model.cc's `EncodeOptimized`): Viterbi over UTF-8
/// positions of the normalized text, every piece that starts at a position scored by its log
/// probability, user-defined symbols by `length × max score − 0.1` so that they always win, and one
/// character that no piece covers by the lowest normal score minus 10 as `<unk>`. The arithmetic is
/// sentencepiece's own (float scores, double candidate sums, the first best kept on ties), so that the
/// same path is chosen.
struct SentencePieceUnigram: Sendable {
    static let unknownPenalty: Float = 10

    let trie: PieceTrie
    let scores: [Float]
    let types: [SentencePieceModelProto.PieceType]
    let unknownID: Int32
    let minScore: Float
    let maxScore: Float

    init(pieces: [SentencePieceModelProto.Piece], trie: PieceTrie, unknownID: Int32) {
        self.trie = trie
        scores = pieces.map(\.score)
        types = pieces.map(\.type)
        self.unknownID = unknownID
        var minScore = Float.greatestFiniteMagnitude
        var maxScore = Float.leastNormalMagnitude  // FLT_MIN, as sentencepiece starts it
        for piece in pieces where piece.type == .normal {
            minScore = min(minScore, piece.score)
            maxScore = max(maxScore, piece.score)
        }
        self.minScore = minScore
        self.maxScore = maxScore
    }

    /// The segmentation as byte ranges of `normalized` and ids.
    func encode(_ normalized: UnsafeBufferPointer<UInt8>) -> [(range: Range<Int>, id: Int32)] {
        let size = normalized.count
        guard size > 0 else { return [] }
        let unknownScore = minScore - Self.unknownPenalty
        var bestScore = [Float](repeating: 0, count: size + 1)
        var bestStart = [Int](repeating: -1, count: size + 1)
        var bestID = [Int32](repeating: -1, count: size + 1)
        var start = 0
        while start < size {
            let scoreHere = bestScore[start]
            let charLength = min(UTF8Scalar.oneCharLength(normalized[start]), size - start)
            var hasSingleNode = false
            trie.forEachPrefix(of: normalized, from: start) { length, id in
                let type = types[Int(id)]
                if type == .unused { return }
                let end = start + length
                let score: Double = type == .userDefined
                    ? Double(Float(length) * maxScore) - 0.1
                    : Double(scores[Int(id)])
                let candidate = score + Double(scoreHere)
                if bestStart[end] == -1 || candidate > Double(bestScore[end]) {
                    bestScore[end] = Float(candidate)
                    bestStart[end] = start
                    bestID[end] = id
                }
                if length == charLength { hasSingleNode = true }
            }
            if !hasSingleNode {
                let end = start + charLength
                let candidate = unknownScore + scoreHere
                if bestStart[end] == -1 || candidate > bestScore[end] {
                    bestScore[end] = candidate
                    bestStart[end] = start
                    bestID[end] = unknownID
                }
            }
            start += charLength
        }
        var result: [(range: Range<Int>, id: Int32)] = []
        var end = size
        while end > 0 {
            let from = bestStart[end]
            guard from >= 0, from < end else { break }  // unreachable for a well-formed lattice
            result.append((from..<end, bestID[end]))
            end = from
        }
        return result.reversed()
    }
}
