import Foundation
import ONNXRuntime
import WarbleSpeech

/// How one window is decoded: greedy (beam 1, temperature 0), beam search (temperature 0) or
/// best-of-N sampling (temperature > 0), as faster-whisper asks ctranslate2 to.
struct WhisperSearch {
    var beamSize = 1
    var bestOf = 5
    var temperature = 0.0
    var patience = 1.0
    var maxInitialTimestampIndex: Int? = 50
    var suppressBlank = true
    /// Seed of the sampler (temperature > 0), so that runs repeat.
    var seed: UInt64 = 0
    /// Stops the search between steps; its run options stop a decoder run under way.
    var cancel = CancellationToken()
    var runOptions: RunOptions?

    struct Result {
        /// Generated tokens without end of text.
        var tokens: [Int]
        /// Sum of the chosen tokens' log-probabilities, end of text included.
        var sumLogProbability: Double
        /// Probability of `<|nospeech|>` at the start-of-transcript position.
        var noSpeechProbability: Double
        /// faster-whisper's avg_logprob: the sum over (token count + 1).
        var averageLogProbability: Double { sumLogProbability / Double(tokens.count + 1) }
    }

    func run(model: WhisperModel, encoding: WhisperEncoding, prompt: [Int]) throws -> Result {
        let c = model.configuration
        let timestamps = prompt.last != c.specialTokens.noTimestamps
        let filter = WhisperLogitsFilter(configuration: c, timestamps: timestamps,
                                         maxInitialTimestampIndex: maxInitialTimestampIndex, suppressBlank: suppressBlank)
        // ctranslate2: max_length = min(448 / 2, 448 - (prompt length - 1)) generated tokens.
        let maxNew = min(c.textContext / 2, c.textContext - (prompt.count - 1))
        guard maxNew > 0 else { throw ModelError(.failed, "the prompt (\(prompt.count) tokens) leaves no room to decode") }
        let sotIndex = prompt.lastIndex(of: c.specialTokens.sot) ?? 0
        if temperature > 0 {
            return try sample(model: model, encoding: encoding, prompt: prompt, filter: filter, maxNew: maxNew,
                              sotIndex: sotIndex)
        }
        return try beam(model: model, encoding: encoding, prompt: prompt, filter: filter, maxNew: maxNew,
                        sotIndex: sotIndex)
    }

    /// Probability of `<|nospeech|>` from the logits of the prompt's start of transcript (the first
    /// position asked for).
    private func noSpeech(_ logits: WhisperLogits, model: WhisperModel) throws -> Double {
        let row = try logits.row(0, position: 0)
        let normaliser = LogitMath.logSumExp(row)
        return exp(Double(row[model.configuration.specialTokens.noSpeech]) - normaliser)
    }

    /// Beam search; with beam 1 it is greedy decoding.
    private func beam(model: WhisperModel, encoding: WhisperEncoding, prompt: [Int], filter: WhisperLogitsFilter,
                      maxNew: Int, sotIndex: Int) throws -> Result {
        let eot = model.configuration.specialTokens.eot
        let width = max(1, beamSize)
        var state = try WhisperDecodingState(model: model, encoding: encoding, batch: 1, runOptions: runOptions)
        var logits = try state.step([prompt], logitPositions: [sotIndex, prompt.count - 1])
        let noSpeechProbability = try noSpeech(logits, model: model)
        struct Hypothesis { var tokens: [Int]; var score: Double }
        var alive = [Hypothesis(tokens: [], score: 0)]
        var finished: [Hypothesis] = []
        let wanted = Int((Double(width) * patience).rounded(.up))
        for step in 0..<maxNew {
            try cancel.check()
            var candidates: [(row: Int, token: Int, score: Double)] = []
            for (row, hypothesis) in alive.enumerated() {
                var raw = try logits.row(row)
                filter.apply(&raw, generated: hypothesis.tokens[...])
                let normaliser = LogitMath.logSumExp(raw)
                for token in width == 1 ? [LogitMath.argmax(raw)] : LogitMath.top(raw, count: width + 1) {
                    candidates.append((row, token, hypothesis.score + Double(raw[token]) - normaliser))
                }
            }
            candidates.sort { $0.score > $1.score }
            var next: [Hypothesis] = []
            var rows: [Int] = []
            for candidate in candidates {
                let tokens = alive[candidate.row].tokens
                if candidate.token == eot {
                    if finished.count < wanted { finished.append(Hypothesis(tokens: tokens, score: candidate.score)) }
                } else if next.count < width {
                    next.append(Hypothesis(tokens: tokens + [candidate.token], score: candidate.score))
                    rows.append(candidate.row)
                }
                if next.count >= width { break }
            }
            if finished.count >= wanted || next.isEmpty || step == maxNew - 1 {
                if finished.isEmpty || (finished.count < wanted && step == maxNew - 1) {
                    finished += next
                }
                break
            }
            alive = next
            try state.reorder(rows)
            logits = try state.step(alive.map { [$0.tokens.last!] })
        }
        let best = finished.max { a, b in
            a.score / Double(max(a.tokens.count, 1)) < b.score / Double(max(b.tokens.count, 1))
        } ?? Hypothesis(tokens: [], score: 0)
        return Result(tokens: best.tokens, sumLogProbability: best.score, noSpeechProbability: noSpeechProbability)
    }

    /// Best-of-N sampling at `temperature` (all N rows decoded together as one batch).
    private func sample(model: WhisperModel, encoding: WhisperEncoding, prompt: [Int], filter: WhisperLogitsFilter,
                        maxNew: Int, sotIndex: Int) throws -> Result {
        let eot = model.configuration.specialTokens.eot
        let count = max(1, bestOf)
        var generator = SplitMix64(seed: seed)
        // The prompt once, then its cache copied to every sample row.
        var state = try WhisperDecodingState(model: model, encoding: encoding, batch: 1, runOptions: runOptions)
        let promptLogits = try state.step([prompt], logitPositions: [sotIndex, prompt.count - 1])
        let noSpeechProbability = try noSpeech(promptLogits, model: model)
        let first = try promptLogits.row(0)
        try state.reorder([Int](repeating: 0, count: count))
        var logits: WhisperLogits?
        var tokens = [[Int]](repeating: [], count: count)
        var scores = [Double](repeating: 0, count: count)
        var done = [Bool](repeating: false, count: count)
        for step in 0..<maxNew {
            try cancel.check()
            for row in 0..<count where !done[row] {
                var raw = step == 0 ? first : try logits!.row(row)
                filter.apply(&raw, generated: tokens[row][...])
                let logProbs = LogitMath.logSoftmax(raw)
                let tempered = LogitMath.logSoftmax(raw.map { $0 / Float(temperature) })
                let token = TokenSampler.draw(logProbabilities: tempered, fallback: eot, using: &generator)
                scores[row] += logProbs[token]
                if token == eot { done[row] = true } else { tokens[row].append(token) }
            }
            if done.allSatisfy({ $0 }) || step == maxNew - 1 { break }
            logits = try state.step(tokens.map { [$0.last ?? eot] })
        }
        let best = (0..<count).max { a, b in
            scores[a] / Double(max(tokens[a].count, 1)) < scores[b] / Double(max(tokens[b].count, 1))
        }!
        return Result(tokens: tokens[best], sumLogProbability: scores[best], noSpeechProbability: noSpeechProbability)
    }
}
