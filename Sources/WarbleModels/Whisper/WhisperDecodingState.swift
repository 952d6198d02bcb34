import WarbleSpeech
import ONNXRuntime

/// The per-request decoder state: the self-attention KV cache of every row (beam or sample), on the
/// shared decoding kit's `KVCache`. Made for one window of one request and dropped with it.
struct WhisperDecodingState {
    let model: WhisperModel
    let encoding: WhisperEncoding
    /// The request's run options (their terminate flag stops a run under way); nil: none.
    let runOptions: RunOptions?
    /// Per layer: K transposed `[batch, heads, headDimension, positions]`, V `[batch, heads, positions, headDimension]`.
    private var cache: KVCache
    var batch: Int { cache.batch }
    var positions: Int { cache.length }

    init(model: WhisperModel, encoding: WhisperEncoding, batch: Int, runOptions: RunOptions? = nil) throws {
        self.model = model
        self.encoding = encoding
        self.runOptions = runOptions
        let names = model.decoderNames
        let entries = names.pastK.indices.flatMap { layer in
            [KVCache.Entry(past: names.pastK[layer], present: names.presentK[layer], sequenceAxis: 3),
             KVCache.Entry(past: names.pastV[layer], present: names.presentV[layer], sequenceAxis: 2)]
        }
        cache = try KVCache(session: model.decoder, entries: entries, batch: batch)
    }

    /// Runs the decoder on `tokens` (one equal-length row per batch entry), extends the cache and
    /// returns the logits `[batch, logitPositions.count, vocabulary]` of the given positions of the call
    /// (by default only the last one: the vocabulary projection is most of a step).
    mutating func step(_ tokens: [[Int]], logitPositions: [Int]? = nil) throws -> WhisperLogits {
        try step(tokens, logitPositions: logitPositions, also: []).logits
    }

    /// `step` that also fetches the decoder outputs named in `also` (such as `cross_scores_<i>`).
    mutating func step(_ tokens: [[Int]], logitPositions: [Int]?, also: [String]) throws
        -> (logits: WhisperLogits, outputs: RunOutputs) {
        precondition(tokens.count == batch && !tokens.isEmpty)
        let length = tokens[0].count
        guard positions + length <= model.configuration.textContext else {
            throw ModelError(.failed, "the decoder holds at most \(model.configuration.textContext) positions, "
                + "\(positions + length) were asked for")
        }
        let wanted = logitPositions ?? [length - 1]
        precondition(wanted.allSatisfy { (0..<length).contains($0) })
        var feeds = encoding.crossFeeds
        feeds["tokens"] = try Tensor(tokens.flatMap { $0.map(Int64.init) }, shape: [batch, length])
        feeds["offset"] = try Tensor([Int64(positions)], shape: [1])
        feeds["logit_positions"] = try Tensor(wanted.map(Int64.init), shape: [wanted.count])
        cache.feed(into: &feeds)
        let out = try model.decoder.run(feeds, outputs: model.decoderNames.outputs + also, options: runOptions)
        try cache.update(from: out, added: length)
        return (WhisperLogits(tensor: try out.tensor("logits"), batch: batch, length: wanted.count,
                              vocabulary: model.configuration.vocabularySize), out)
    }

    /// Keeps the cache rows `rows` (in that order; repeats allowed): beams that survived a step.
    mutating func reorder(_ rows: [Int]) throws {
        try cache.reorder(rows)
    }
}

/// Decoder logits `[batch, length, vocabulary]` (`length`: the positions asked for).
struct WhisperLogits {
    let tensor: Tensor
    let batch: Int
    let length: Int
    let vocabulary: Int

    /// The logits of row `row` at the `position`-th position asked for (negative counts from the end).
    func row(_ row: Int, position: Int = -1) throws -> [Float] {
        let p = position < 0 ? length + position : position
        return try tensor.withUnsafeBufferPointer(of: Float.self) { v in
            let start = (row * length + p) * vocabulary
            return Array(v[start..<(start + vocabulary)])
        }
    }
}
