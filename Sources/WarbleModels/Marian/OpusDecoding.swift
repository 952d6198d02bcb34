import Foundation
import ONNXRuntime
import WarbleSpeech

/// Decoding an Opus-MT model as transformers' `generate` (5.x) does, greedy or by beam search,
/// with the logits processors its generation config names: no `bad_words_ids`, no `</s>` before
/// `min_length`, `</s>` forced at the last position (`forced_eos_token_id`), `renormalize_logits`.
/// Scores are kept in f32 as transformers keeps them, so that ties and near-ties fall the same way.
struct OpusDecoding: Sendable {
    let encoder: MarianEncoder
    let decoder: OpusDecoder
    let eos: Int
    let generation: OpusGeneration
    /// Output length at most (start token included): the configuration's, within the model's positions.
    let maxLength: Int

    static let masked: Float = -1e9

    /// The processed scores of one row at `length` tokens so far (start included).
    func process(_ scores: inout ArraySlice<Float>, length: Int) {
        let base = scores.startIndex
        if length < generation.minLength { scores[base + eos] = -.infinity }
        for word in generation.badWords where word >= 0 && word < scores.count { scores[base + word] = -.infinity }
        if let forced = generation.forcedEOS, length == maxLength - 1, forced >= 0, forced < scores.count {
            for k in scores.indices { scores[k] = -.infinity }
            scores[base + forced] = 0
        }
        if generation.renormalize { Self.logSoftmax(&scores) }
    }

    static func logSoftmax(_ values: inout ArraySlice<Float>) {
        guard let top = values.max(), top.isFinite else { return }
        var sum = 0.0
        for v in values { sum += exp(Double(v - top)) }
        let shift = top + Float(log(sum))
        for k in values.indices { values[k] -= shift }
    }

    struct Request {
        let encoded: Tensor
        let mask: Tensor
    }

    /// The encoder output and mask of `source` (ids with `</s>`), repeated for `rows` rows.
    func start(_ source: [Int], rows: Int, options: RunOptions?) throws -> Request {
        let mask = try encoder.graph.indices([Int](repeating: 1, count: source.count), shape: [1, source.count], for: "attention_mask")
        let encoded = try encoder.encode(source, mask: mask, options: options)
        guard rows > 1 else {
            return Request(encoded: encoded, mask: try decoder.graph.indices([Int](repeating: 1, count: source.count),
                                                                            shape: [1, source.count], for: "attention_mask"))
        }
        return Request(encoded: try RawTensor.gather(encoded, axis: 0, indices: [Int](repeating: 0, count: rows)),
                       mask: try decoder.graph.indices([Int](repeating: 1, count: source.count * rows), shape: [rows, source.count],
                                                       for: "attention_mask"))
    }

    /// The output ids (without the start token and `</s>`) of `source`.
    func decode(_ source: [Int], beamSize: Int, options: RunOptions? = nil, cancel: CancellationToken? = nil) throws -> [Int] {
        guard !source.isEmpty else { return [] }
        return beamSize > 1 ? try beamSearch(source, beams: beamSize, options: options, cancel: cancel)
            : try greedy(source, options: options, cancel: cancel)
    }

    /// transformers' greedy search: the first maximum of the processed logits until `</s>` or `max_length`.
    func greedy(_ source: [Int], options: RunOptions?, cancel: CancellationToken? = nil) throws -> [Int] {
        let request = try start(source, rows: 1, options: options)
        var cache = try decoder.emptyCache(batch: 1)
        var tokens = [generation.start]
        while tokens.count < maxLength {
            if let cancel { try cancel.check() } else { try Task.checkCancellation() }
            var scores = try decoder.step([tokens[tokens.count - 1]], cache: &cache, encoded: request.encoded, mask: request.mask,
                                          options: options)[...]
            process(&scores, length: tokens.count)
            var best = scores.startIndex
            for k in scores.indices where scores[k] > scores[best] { best = k }
            tokens.append(best)
            if best == eos { break }
        }
        return Self.strip(tokens, eos: eos)
    }

    static func strip(_ tokens: [Int], eos: Int) -> [Int] {
        let generated = tokens.dropFirst()
        return Array(generated.prefix { $0 != eos })
    }

    /// transformers' beam search (`_beam_search`, batch of one): every step, the 2×beams best
    /// continuations of all running beams by accumulated log-probability; those ending in `</s>` (or
    /// reaching `max_length`) among the first `beams` become finished hypotheses scored by
    /// log-probability / length^length_penalty (length without the start token, with `</s>`); the best
    /// `beams` others run on. It stops when no running beam can beat the worst of `beams` finished ones
    /// (the `early_stopping` heuristic), or at `max_length`. Ties go to the lower index, as torch.topk's.
    func beamSearch(_ source: [Int], beams n: Int, options: RunOptions?, cancel: CancellationToken? = nil) throws -> [Int] {
        let request = try start(source, rows: n, options: options)
        var cache = try decoder.emptyCache(batch: n)
        let width = decoder.vocabularySize
        let keep = 2 * n
        var running = [[Int]](repeating: [generation.start], count: n)
        var runningScores = [Float](repeating: Self.masked, count: n)
        runningScores[0] = 0
        var finished: [(tokens: [Int], score: Float)] = []
        var improvable = true
        let penalty = Float(generation.lengthPenalty)
        var length = 1
        while true {
            if let cancel { try cancel.check() } else { try Task.checkCancellation() }
            var scores = try decoder.step(running.map { $0[$0.count - 1] }, cache: &cache, encoded: request.encoded,
                                          mask: request.mask, options: options)
            for b in 0..<n {
                var row = scores[(b * width)..<((b + 1) * width)]
                Self.logSoftmax(&row)
                process(&row, length: length)
                for k in row.indices { row[k] += runningScores[b] }
                scores.replaceSubrange((b * width)..<((b + 1) * width), with: row)
            }
            let top = Self.top(scores, count: keep)
            let candidates = top.map { (beam: $0 / width, word: $0 % width, score: scores[$0]) }
            let hits = candidates.map { $0.word == eos || length + 1 >= maxLength }
            // The running beams of the next step: the best non-finished continuations.
            let penalised = zip(candidates, hits).map { $0.score + ($1 ? Self.masked : 0) }
            let chosen = Self.top(penalised, count: n)
            let parents = chosen.map { candidates[$0].beam }
            let previous = running
            running = chosen.map { running[candidates[$0].beam] + [candidates[$0].word] }
            runningScores = chosen.map { penalised[$0] }
            try cache.reorder(parents)
            // The finished hypotheses: the old ones first, then this step's among the first `n`.
            let full = finished.count == n && generation.earlyStopping == "true"
            if improvable, !full {
                var merged = finished
                for j in 0..<n where hits[j] {
                    let c = candidates[j]
                    merged.append((previous[c.beam] + [c.word], c.score / Float(pow(Double(length), Double(penalty)))))
                }
                let order = merged.indices.sorted { merged[$0].score > merged[$1].score || (merged[$0].score == merged[$1].score && $0 < $1) }
                finished = order.prefix(n).map { merged[$0] }
            }
            length += 1
            if finished.count == n {
                let best = generation.earlyStopping == "never" && penalty > 0 ? maxLength - 1 : length - 1
                let possible = runningScores[0] / Float(pow(Double(best), Double(penalty)))
                let worst = finished.map(\.score).min() ?? Self.masked
                improvable = improvable && possible > worst
            }
            if !improvable || (finished.count == n && generation.earlyStopping == "true") || hits.allSatisfy({ $0 }) { break }
        }
        return Self.strip(finished.first?.tokens ?? [generation.start], eos: eos)
    }

    /// The indices of the `count` largest values, largest first, ties to the lower index.
    static func top(_ values: [Float], count: Int) -> [Int] {
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        for k in values.indices {
            let v = values[k]
            if best.count == count, let last = best.last, !(v > values[last]) { continue }
            var at = best.count
            while at > 0, v > values[best[at - 1]] { at -= 1 }
            best.insert(k, at: at)
            if best.count > count { best.removeLast() }
        }
        return best
    }
}
