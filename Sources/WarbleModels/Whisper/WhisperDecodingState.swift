import ONNXRuntime

/// The per-request decoder state: the self-attention KV cache of every row (beam or sample) and how
/// many positions it holds. Made for one window of one request and dropped with it.
struct WhisperDecodingState {
    let model: WhisperModel
    let encoding: WhisperEncoding
    private(set) var batch: Int
    private(set) var positions = 0
    private var pastK: Tensor
    private var pastV: Tensor

    init(model: WhisperModel, encoding: WhisperEncoding, batch: Int) throws {
        let c = model.configuration
        self.model = model
        self.encoding = encoding
        self.batch = batch
        pastK = try Tensor(repeating: Float(0), shape: [c.decoderLayers, batch, c.decoderHeads, c.headDimension, 0])
        pastV = try Tensor(repeating: Float(0), shape: [c.decoderLayers, batch, c.decoderHeads, 0, c.headDimension])
    }

    /// Runs the decoder on `tokens` (one equal-length row per batch entry), extends the cache and
    /// returns the logits `[batch, T, vocabulary]`.
    mutating func step(_ tokens: [[Int]]) throws -> WhisperLogits {
        precondition(tokens.count == batch && !tokens.isEmpty)
        let length = tokens[0].count
        guard positions + length <= model.configuration.textContext else {
            throw ModelError(.failed, "the decoder holds at most \(model.configuration.textContext) positions, "
                + "\(positions + length) were asked for")
        }
        var feeds = encoding.crossFeeds
        feeds["tokens"] = try Tensor(tokens.flatMap { $0.map(Int64.init) }, shape: [batch, length])
        feeds["offset"] = try Tensor([Int64(positions)], shape: [1])
        feeds["past_k"] = pastK
        feeds["past_v"] = pastV
        let out = try model.decoder.run(feeds, outputs: ["logits", "present_k", "present_v"])
        pastK = try out.tensor("present_k")
        pastV = try out.tensor("present_v")
        positions += length
        return WhisperLogits(tensor: try out.tensor("logits"), batch: batch, length: length,
                             vocabulary: model.configuration.vocabularySize)
    }

    /// Keeps the cache rows `rows` (in that order; repeats allowed): beams that survived a step.
    mutating func reorder(_ rows: [Int]) throws {
        if rows == Array(0..<batch) { return }
        pastK = try Self.gather(pastK, rows: rows)
        pastV = try Self.gather(pastV, rows: rows)
        batch = rows.count
    }

    /// Gathers along axis 1 of a `[L, B, …]` tensor.
    private static func gather(_ tensor: Tensor, rows: [Int]) throws -> Tensor {
        let layers = tensor.shape[0], oldBatch = tensor.shape[1]
        let inner = tensor.shape.dropFirst(2).reduce(1, *)
        var shape = tensor.shape
        shape[1] = rows.count
        return try tensor.withUnsafeBufferPointer(of: Float.self) { source in
            try Tensor(shape: shape, of: Float.self) { target in
                guard inner > 0 else { return }
                for l in 0..<layers {
                    for (b, row) in rows.enumerated() {
                        let from = source.baseAddress! + (l * oldBatch + row) * inner
                        let to = target.baseAddress! + (l * rows.count + b) * inner
                        to.update(from: from, count: inner)
                    }
                }
            }
        }
    }
}

/// Decoder logits `[batch, length, vocabulary]`.
struct WhisperLogits {
    let tensor: Tensor
    let batch: Int
    let length: Int
    let vocabulary: Int

    /// The logits of row `row` at position `position` (negative counts from the end).
    func row(_ row: Int, position: Int = -1) throws -> [Float] {
        let p = position < 0 ? length + position : position
        return try tensor.withUnsafeBufferPointer(of: Float.self) { v in
            let start = (row * length + p) * vocabulary
            return Array(v[start..<(start + vocabulary)])
        }
    }
}
