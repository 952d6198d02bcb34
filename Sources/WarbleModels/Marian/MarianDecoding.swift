import Foundation
import ONNXRuntime
import WarbleSpeech
import WarbleText

/// Greedy decoding of one sentence, as bergamot's engine decodes these models (beam 1) and as
/// tools/marian/reference.py does: encode the source ids (+ EOS); score the shortlist's words at each
/// step; take the first maximum; stop at EOS or after ceil(factor × source length) tokens (the last
/// one kept: marian's History forces no EOS).
struct MarianDecoding: Sendable {
    let encoder: MarianEncoder
    let decoder: MarianDecoder
    let shortlist: MarianShortlist
    let vocabularySize: Int
    let configuration: MarianConfiguration

    /// The longest output for `sourceLength` ids (EOS included).
    func limit(sourceLength: Int) -> Int { Int((configuration.maxLengthFactor * Double(sourceLength)).rounded(.up)) }

    /// The shortlist a source row is decoded over.
    func selection(for source: [Int]) -> [Int] { shortlist.indices(for: source, vocabularySize: vocabularySize) }

    /// The output ids (without EOS) of `source` (ids with the EOS at the end): greedy at beam size 1,
    /// else `beamSearch`.
    func decode(_ source: [Int], beamSize: Int? = nil, options: RunOptions? = nil, cancel: CancellationToken? = nil) throws -> [Int] {
        let beam = beamSize ?? configuration.beamSize
        if beam > 1 { return try beamSearch(source, width: beam, options: options, cancel: cancel).tokens }
        guard !source.isEmpty else { return [] }
        let request = try start(source, options: options)
        var states = try decoder.zeroStates()
        var previous = -1
        var output: [Int] = []
        for position in 0..<limit(sourceLength: source.count) {
            if let cancel { try cancel.check() } else { try Task.checkCancellation() }
            let step = try request.step(previous: previous, position: position, states: states, options: options)
            states = step.states
            var best = 0
            for k in 1..<step.logits.count where step.logits[k] > step.logits[best] { best = k }
            let word = request.words[best]
            if word == configuration.eos { break }
            output.append(word)
            previous = word
        }
        return output
    }

    /// What every step of one source row shares: the encoder output, the masks and the shortlist.
    struct Request {
        let decoder: MarianDecoder
        let encoded: Tensor
        let mask: Tensor
        let words: [Int]
        let shortlist: Tensor

        func step(previous: Int, position: Int, states: [Tensor], options: RunOptions?) throws -> (logits: [Float], states: [Tensor]) {
            try decoder.step(previous: previous, position: position, states: states, encoded: encoded, mask: mask,
                             shortlist: shortlist, options: options)
        }
    }

    func start(_ source: [Int], options: RunOptions?) throws -> Request {
        let mask = try encoder.graph.indices([Int](repeating: 1, count: source.count), shape: [1, source.count], for: "attention_mask")
        let encoded = try encoder.encode(source, mask: mask, options: options)
        let words = selection(for: source)
        return Request(decoder: decoder, encoded: encoded,
                       mask: try decoder.graph.indices([Int](repeating: 1, count: source.count), shape: [1, source.count],
                                                       for: "attention_mask"),
                       words: words, shortlist: try decoder.graph.indices(words, shape: [words.count], for: "shortlist"))
    }

    /// A hypothesis: its words, the sum of their log-probabilities (over the shortlist), its decoder state.
    struct Hypothesis {
        var tokens: [Int]
        var score: Double
        var states: [Tensor]
        /// Ranked by: score / (words + EOS)^normalize.
        func normalized(_ power: Double) -> Double { score / pow(Double(tokens.count + 1), power) }
    }

    /// Beam search as marian-dev's `BeamSearch` runs it for one sentence: each step every live
    /// hypothesis is extended by its `width` most likely words (log-softmax over the shortlist); the
    /// `width` best extensions by summed log-probability survive (ties: the earlier hypothesis, then
    /// the lower word id); one that ends in EOS is finished and the beam narrows by one; at the length
    /// limit the live ones finish as they are. The result is the finished hypothesis with the best
    /// score / length^normalize (length counting the EOS). Each hypothesis runs its own batch-1 step.
    func beamSearch(_ source: [Int], width: Int, options: RunOptions? = nil, cancel: CancellationToken? = nil) throws -> Hypothesis {
        guard !source.isEmpty else { return Hypothesis(tokens: [], score: 0, states: []) }
        let request = try start(source, options: options)
        var live = [Hypothesis(tokens: [], score: 0, states: try decoder.zeroStates())]
        var finished: [Hypothesis] = []
        for position in 0..<limit(sourceLength: source.count) {
            if let cancel { try cancel.check() } else { try Task.checkCancellation() }
            var candidates: [(hypothesis: Int, word: Int, score: Double)] = []
            var next: [[Tensor]] = []
            for (index, hypothesis) in live.enumerated() {
                let step = try request.step(previous: hypothesis.tokens.last ?? -1, position: position, states: hypothesis.states,
                                            options: options)
                next.append(step.states)
                let logProbabilities = LogitMath.logSoftmax(step.logits)
                let best = logProbabilities.indices.sorted { logProbabilities[$0] > logProbabilities[$1] || (logProbabilities[$0] ==
                    logProbabilities[$1] && request.words[$0] < request.words[$1]) }.prefix(width)
                for k in best { candidates.append((index, request.words[k], hypothesis.score + logProbabilities[k])) }
            }
            candidates.sort { ($0.score, -$0.hypothesis, -$0.word) > ($1.score, -$1.hypothesis, -$1.word) }
            var survivors: [Hypothesis] = []
            for candidate in candidates.prefix(width - finished.count) {
                let parent = live[candidate.hypothesis]
                if candidate.word == configuration.eos {
                    finished.append(Hypothesis(tokens: parent.tokens, score: candidate.score, states: []))
                } else {
                    survivors.append(Hypothesis(tokens: parent.tokens + [candidate.word], score: candidate.score,
                                                states: next[candidate.hypothesis]))
                }
            }
            live = survivors
            if live.isEmpty || finished.count >= width { break }
        }
        finished += live
        let power = configuration.normalize
        return finished.enumerated().max { a, b in
            let (x, y) = (a.element.normalized(power), b.element.normalized(power))
            return x != y ? x < y : a.offset > b.offset
        }?.element ?? Hypothesis(tokens: [], score: 0, states: [])
    }

    /// The summed log-probability of `output` (then EOS) for `source`: how the model scores a translation.
    func score(_ source: [Int], output: [Int], options: RunOptions? = nil) throws -> Double {
        let request = try start(source, options: options)
        var states = try decoder.zeroStates()
        var total = 0.0
        for (position, word) in (output + [configuration.eos]).enumerated() {
            let step = try request.step(previous: position == 0 ? -1 : output[position - 1], position: position, states: states,
                                        options: options)
            states = step.states
            guard let k = request.words.firstIndex(of: word) else { return -.infinity }
            total += LogitMath.logSoftmax(step.logits)[k]
        }
        return total
    }
}
