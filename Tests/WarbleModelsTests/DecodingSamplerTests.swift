import Foundation
import Testing
import WarbleSpeech
@testable import WarbleModels

/// The decoding kit's samplers against hand-computed expectations: the seeded generator's known
/// outputs (SplitMix64's reference values for seed 0), greedy, temperature, top-k, top-p, the
/// repetition penalty and CosyVoice's RAS. Draw counts are chosen so that a wrong sampler fails
/// with overwhelming probability, and every draw is seeded, so the outcome never changes.
@Suite struct DecodingSamplerTests {
    /// Logits whose softmax is exactly `probabilities` (up to rounding).
    func logits(_ probabilities: [Double]) -> [Float] { probabilities.map { Float(log($0)) } }

    @Test func splitMix64GivesItsReferenceValues() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        #expect((0..<5).map { _ in a.uniform() } == (0..<5).map { _ in b.uniform() })
    }

    @Test func greedyTakesTheLargestAndTheFirstOnTies() {
        var generator = SplitMix64(seed: 1)
        #expect(TokenSampler.greedy.sample([0.1, 3, -1, 3], using: &generator) == 1)
    }

    @Test func theSameSeedGivesTheSameTokens() {
        let sampler = TokenSampler(temperature: 0.8, topK: 3, topP: 0.95)
        let row = logits([0.4, 0.3, 0.2, 0.1])
        func run(_ seed: UInt64) -> [Int] {
            var generator = SplitMix64(seed: seed)
            return (0..<50).map { _ in sampler.sample(row, using: &generator) }
        }
        #expect(run(7) == run(7))
        #expect(run(7) != run(8))
    }

    @Test func topKAndTopPKeepTheLikeliestTokens() {
        let row = logits([0.5, 0.25, 0.15, 0.1])
        #expect(TokenSampler.candidates(row, temperature: 1, topK: 2, topP: nil).map(\.token) == [0, 1])
        let nucleus = TokenSampler.candidates(row, temperature: 1, topK: nil, topP: 0.7)
        #expect(nucleus.map(\.token) == [0, 1])
        #expect(abs(nucleus[0].probability - 2.0 / 3) < 1e-6)
        var generator = SplitMix64(seed: 3)
        let draws = (0..<400).map { _ in TokenSampler(temperature: 1, topP: 0.7).sample(row, using: &generator) }
        #expect(Set(draws) == [0, 1])
        let share = Double(draws.filter { $0 == 0 }.count) / 400
        #expect(abs(share - 2.0 / 3) < 0.1, "token 0 drawn \(share) of the time, expected 2/3")
    }

    @Test func temperatureSharpensAndFlattens() {
        let row = logits([0.6, 0.4])
        let cold = TokenSampler.candidates(row, temperature: 0.5, topK: nil, topP: nil)
        let hot = TokenSampler.candidates(row, temperature: 2, topK: nil, topP: nil)
        // p ∝ p^(1/T): 0.36/0.52 at T = 0.5; √0.6/(√0.6+√0.4) at T = 2.
        #expect(abs(cold[0].probability - 0.36 / 0.52) < 1e-5)
        #expect(abs(hot[0].probability - 0.6.squareRoot() / (0.6.squareRoot() + 0.4.squareRoot())) < 1e-5)
    }

    @Test func repetitionPenaltyDividesPositiveAndMultipliesNegativeLogits() {
        var row: [Float] = [2, 1.9, -1, 0.5]
        TokenSampler.penalise(&row, tokens: [0, 2, 9], penalty: 2)
        #expect(row == [1, 1.9, -2, 0.5])
        var generator = SplitMix64(seed: 0)
        let sampler = TokenSampler(temperature: 0, repetitionPenalty: 2)
        #expect(sampler.sample([2, 1.9], penalised: [0], using: &generator) == 1)
        #expect(sampler.sample([2, 1.9], penalised: [], using: &generator) == 0)
    }

    @Test func suppressedTokensAreNeverDrawn() {
        var generator = SplitMix64(seed: 5)
        let row: [Float] = [0, -.infinity, 0, -.infinity]
        let draws = (0..<200).map { _ in TokenSampler(temperature: 1).sample(row, using: &generator) }
        #expect(Set(draws) == [0, 2])
    }

    @Test func rasNucleusFollowsTheReference() {
        // Taken while the sum so far is below 0.8: 0.5, 0.25 (sum 0.75 < 0.8), then 0.15 crosses it.
        let nucleus = RepetitionAwareSampler().nucleus(logits([0.5, 0.25, 0.15, 0.1]))
        #expect(nucleus.map(\.token) == [0, 1, 2])
        #expect(abs(nucleus.map(\.probability).reduce(0, +) - 1) < 1e-9)
        #expect(RepetitionAwareSampler(topK: 2).nucleus(logits([0.3, 0.3, 0.2, 0.2])).count == 2)
    }

    @Test func rasDrawsAgainFromEverythingWhenTheTokenRepeats() {
        let sampler = RepetitionAwareSampler()
        // The nucleus is token 0 alone (0.9 ≥ 0.8 after the first).
        let row = logits([0.9, 0.05, 0.05])
        var generator = SplitMix64(seed: 11)
        let fresh = (0..<300).map { _ in sampler.sample(row, produced: [1, 2], using: &generator) }
        #expect(Set(fresh) == [0])
        // Token 0 is in the last 10 produced (window 10 × tau_r 0.1 = 1 occurrence): another is drawn
        // from the rest of the distribution (the authors' ras_sampling rules the repeated one out).
        let repeated = (0..<300).map { _ in sampler.sample(row, produced: [0], using: &generator) }
        #expect(Set(repeated) == [1, 2])
        // With nothing else possible (every other score −∞) the repeated token stays.
        #expect(sampler.sample([0, -.infinity, -.infinity], produced: [0], using: &generator) == 0)
        // Outside the window it no longer counts.
        let old = [0] + [Int](repeating: 1, count: 10)
        let aged = (0..<300).map { _ in sampler.sample(row, produced: old, using: &generator) }
        #expect(Set(aged) == [0])
    }
}
