import Foundation

/// Sampling with Hugging Face transformers' processors in `generate`'s order (what a model whose
/// authors call `generate(do_sample=True, ...)` gets): the repetition penalty over every input id, the
/// prompt included (`RepetitionPenaltyLogitsProcessor`: negative scores multiplied, others divided),
/// then temperature, top-k (every score at least the k-th largest: ties with it kept), top-p
/// (`TopPLogitsWarper`: by probability ascending, tokens whose cumulative probability is at most
/// 1 − top_p removed, the most likely always kept), min-p (tokens below min_p × the top probability
/// removed), then a softmax in double over the survivors and the inverse CDF of the caller's uniform
/// over them ordered by probability (ties: the lower id first). Temperature 0: greedy after the penalty.
/// Chatterbox's reference applies the penalty last (`ChatterboxSampler`): a different order.
public struct TransformersSampler: Sendable, Equatable {
    public var temperature: Float
    public var topK: Int
    public var topP: Double
    public var minP: Double?
    public var repetitionPenalty: Float

    public init(temperature: Float, topK: Int, topP: Double = 1, minP: Double? = nil, repetitionPenalty: Float = 1) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.repetitionPenalty = repetitionPenalty
    }

    /// Whether the penalty changes anything (callers keep the set of input ids only then).
    public var penalises: Bool { repetitionPenalty != 1 }

    /// The token for `logits`; `inputs`: every id so far (prompt and written); `uniform` gives the draw.
    public func choose(_ logits: [Float], inputs: Set<Int>, uniform: () -> Double) -> Int {
        var scores = logits
        if penalises {
            for token in inputs where scores.indices.contains(token) {
                scores[token] = scores[token] < 0 ? scores[token] * repetitionPenalty : scores[token] / repetitionPenalty
            }
        }
        if temperature <= 0 { return LogitMath.argmax(scores) }
        if temperature != 1 { scores = scores.map { $0 / temperature } }
        let kth = topK > 0 && scores.count > topK ? LogitMath.kthLargest(scores, topK) : -Float.infinity
        var kept: [Int] = []
        scores.withUnsafeBufferPointer { row in
            kept.reserveCapacity(min(row.count, max(topK, 0) + 8))
            var i = 0
            while i < row.count {
                if row[i] >= kth && row[i] > -.infinity { kept.append(i) }
                i += 1
            }
        }
        guard !kept.isEmpty else { return LogitMath.argmax(scores) }
        kept.sort { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        if topP < 1 {
            // Ascending cumulative sums: a token's is its probability plus every less likely one's.
            let p = Self.softmax(kept.map { scores[$0] })
            var below = 0.0
            var keep = kept.count
            for i in stride(from: kept.count - 1, through: 1, by: -1) {
                below += p[i]
                if below <= 1 - topP { keep = i } else { break }
            }
            kept.removeSubrange(keep...)
        }
        if let minP, minP > 0 {
            let p = Self.softmax(kept.map { scores[$0] })
            let floor = minP * (p.first ?? 0)
            let keep = max(1, p.prefix { $0 >= floor }.count)
            kept.removeSubrange(keep...)
        }
        let q = Self.softmax(kept.map { scores[$0] })
        let order = kept.indices.sorted { q[$0] != q[$1] ? q[$0] > q[$1] : kept[$0] < kept[$1] }
        var left = uniform()
        for i in order {
            left -= q[i]
            if left < 0 { return kept[i] }
        }
        return kept[order.last ?? 0]
    }

    static func softmax(_ values: [Float]) -> [Double] {
        guard let top = values.max() else { return [] }
        let e = values.map { Foundation.exp(Double($0) - Double(top)) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
