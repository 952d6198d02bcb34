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

    /// The output ids (without EOS) of `source` (ids with the EOS at the end).
    func decode(_ source: [Int], options: RunOptions? = nil) throws -> [Int] {
        guard !source.isEmpty else { return [] }
        let mask = try encoder.graph.indices([Int](repeating: 1, count: source.count), shape: [1, source.count], for: "attention_mask")
        let encoded = try encoder.encode(source, mask: mask, options: options)
        let words = selection(for: source)
        let shortlist = try decoder.graph.indices(words, shape: [words.count], for: "shortlist")
        let decoderMask = try decoder.graph.indices([Int](repeating: 1, count: source.count), shape: [1, source.count],
                                                    for: "attention_mask")
        var states = try decoder.zeroStates()
        var previous = -1
        var output: [Int] = []
        for position in 0..<limit(sourceLength: source.count) {
            try Task.checkCancellation()
            let step = try decoder.step(previous: previous, position: position, states: states, encoded: encoded,
                                        mask: decoderMask, shortlist: shortlist, options: options)
            states = step.states
            var best = 0
            for k in 1..<step.logits.count where step.logits[k] > step.logits[best] { best = k }
            let word = words[best]
            if word == configuration.eos { break }
            output.append(word)
            previous = word
        }
        return output
    }
}
