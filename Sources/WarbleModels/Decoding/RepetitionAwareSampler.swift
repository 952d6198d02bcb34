/// CosyVoice's repetition-aware sampling (RAS): a nucleus draw (the most likely tokens while their
/// cumulative probability is below `topP` and there are fewer than `topK`); if the token drawn occurs
/// at least `window × tauR` times in the last `window` tokens produced, another is drawn from the whole
/// distribution without it (the authors' `ras_sampling` sets its score to −∞ first). Stops speech LLMs
/// from looping on one token without flattening every step.
public struct RepetitionAwareSampler: Sendable, Equatable {
    public var topP: Double
    public var topK: Int
    public var window: Int
    public var tauR: Double

    /// The reference's values: top-p 0.8, top-k 25, window 10, tau_r 0.1.
    public init(topP: Double = 0.8, topK: Int = 25, window: Int = 10, tauR: Double = 0.1) {
        self.topP = topP
        self.topK = topK
        self.window = window
        self.tauR = tauR
    }

    /// The next token given the tokens produced so far.
    public func sample(_ logits: [Float], produced: [Int], using generator: inout SplitMix64) -> Int {
        let nucleus = nucleus(logits)
        let token = TokenSampler.draw(nucleus, using: &generator)
        let recent = produced.suffix(window).filter { $0 == token }.count
        guard Double(recent) >= Double(window) * tauR else { return token }
        var others = logits
        others[token] = -.infinity
        let rest = TokenSampler.candidates(others, temperature: 1, topK: nil, topP: nil)
        return rest.isEmpty ? token : TokenSampler.draw(rest, using: &generator)
    }

    /// The reference's nucleus: tokens by probability, taken while the sum so far is below `topP` and
    /// fewer than `topK` are taken (so the token that crosses `topP` is included), renormalised.
    public func nucleus(_ logits: [Float]) -> [(token: Int, probability: Double)] {
        let all = TokenSampler.candidates(logits, temperature: 1, topK: nil, topP: nil)
        var kept: [(token: Int, probability: Double)] = []
        var cumulative = 0.0
        for candidate in all {
            guard cumulative < topP, kept.count < topK else { break }
            cumulative += candidate.probability
            kept.append(candidate)
        }
        return kept.map { ($0.token, $0.probability / cumulative) }
    }
}
