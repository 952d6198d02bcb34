import Foundation

/// Picks the next token from a row of logits: greedy at temperature 0, else a draw from the
/// softmax of logits / temperature, restricted to the `topK` most likely tokens and to the smallest
/// set whose probability reaches `topP` (nucleus), after a repetition penalty over the tokens the
/// request has produced (Hugging Face's semantics: positive logits divided by the penalty, negative
/// ones multiplied). Draws come from the caller's seeded generator: the same seed gives the same tokens.
public struct TokenSampler: Sendable, Equatable {
    public var temperature: Double
    /// Keep only the `topK` most likely tokens (nil: all).
    public var topK: Int?
    /// Keep the most likely tokens until their probability reaches `topP` (nil or 1: all).
    public var topP: Double?
    /// > 1 makes tokens already in the penalty set less likely (1: no penalty).
    public var repetitionPenalty: Double

    public init(temperature: Double = 1, topK: Int? = nil, topP: Double? = nil, repetitionPenalty: Double = 1) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.repetitionPenalty = repetitionPenalty
    }

    /// Greedy decoding: always the most likely token.
    public static let greedy = TokenSampler(temperature: 0)

    /// The next token of `logits`. `penalised`: the tokens the repetition penalty applies to (a set the
    /// request keeps adding to). Tokens whose logit is −∞ are never drawn.
    public func sample(_ logits: [Float], penalised: Set<Int> = [], using generator: inout SplitMix64) -> Int {
        var row = logits
        if repetitionPenalty != 1 { Self.penalise(&row, tokens: penalised, penalty: Float(repetitionPenalty)) }
        if temperature <= 0 { return LogitMath.argmax(row) }
        let candidates = Self.candidates(row, temperature: temperature, topK: topK, topP: topP)
        return Self.draw(candidates, using: &generator)
    }

    /// Hugging Face's repetition penalty, in place.
    public static func penalise(_ logits: inout [Float], tokens: Set<Int>, penalty: Float) {
        for token in tokens where logits.indices.contains(token) {
            logits[token] = logits[token] > 0 ? logits[token] / penalty : logits[token] * penalty
        }
    }

    /// The tokens that may be drawn, most likely first (ties: the lower id first), with their
    /// probabilities renormalised to sum to one.
    public static func candidates(_ logits: [Float], temperature: Double, topK: Int?, topP: Double?)
        -> [(token: Int, probability: Double)] {
        let scaled = temperature == 1 ? logits : logits.map { $0 / Float(temperature) }
        let logProbabilities = LogitMath.logSoftmax(scaled)
        var order = logProbabilities.indices.filter { logProbabilities[$0] > -.infinity }
        order.sort { logProbabilities[$0] > logProbabilities[$1] || (logProbabilities[$0] == logProbabilities[$1] && $0 < $1) }
        if let topK, topK > 0, order.count > topK { order.removeSubrange(topK...) }
        var kept: [(token: Int, probability: Double)] = []
        var total = 0.0
        for token in order {
            let probability = exp(logProbabilities[token])
            kept.append((token, probability))
            total += probability
            if let topP, topP < 1, total >= topP { break }
        }
        return kept.map { ($0.token, $0.probability / total) }
    }

    /// Inverse-CDF draw over log-probabilities in token order (what faster-whisper's sampler does;
    /// −∞ entries are skipped). The fallback is `fallback` when every entry is −∞.
    public static func draw(logProbabilities: [Double], fallback: Int, using generator: inout SplitMix64) -> Int {
        var u = generator.uniform()
        var token = fallback
        for (index, logProbability) in logProbabilities.enumerated() where logProbability > -.infinity {
            u -= exp(logProbability)
            token = index
            if u <= 0 { break }
        }
        return token
    }

    /// Inverse-CDF draw from `candidates` (probabilities summing to one).
    public static func draw(_ candidates: [(token: Int, probability: Double)], using generator: inout SplitMix64) -> Int {
        var u = generator.uniform()
        for candidate in candidates {
            u -= candidate.probability
            if u < 0 { return candidate.token }
        }
        return candidates.last?.token ?? 0
    }
}
