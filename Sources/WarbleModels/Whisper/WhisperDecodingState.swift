import WarbleSpeech
import ONNXRuntime

/// The per-request decoder state: the self-attention KV cache of every row (beam or sample) and how
/// many positions it holds. Made for one window of one request and dropped with it.
struct WhisperDecodingState {
    let model: WhisperModel
    let encoding: WhisperEncoding
    private(set) var batch: Int
    private(set) var positions = 0
    /// Per layer: K transposed `[batch, heads, headDimension, positions]`, V `[batch, heads, positions, headDimension]`.
    private var pastK: [Tensor]
    private var pastV: [Tensor]

    init(model: WhisperModel, encoding: WhisperEncoding, batch: Int) throws {
        let c = model.configuration
        self.model = model
        self.encoding = encoding
        self.batch = batch
        pastK = try (0..<c.decoderLayers).map { _ in
            try Tensor(repeating: Float(0), shape: [batch, c.decoderHeads, c.headDimension, 0])
        }
        pastV = try (0..<c.decoderLayers).map { _ in
            try Tensor(repeating: Float(0), shape: [batch, c.decoderHeads, 0, c.headDimension])
        }
    }

    /// Runs the decoder on `tokens` (one equal-length row per batch entry), extends the cache and
    /// returns the logits `[batch, logitPositions.count, vocabulary]` of the given positions of the call
    /// (by default only the last one: the vocabulary projection is most of a step).
    mutating func step(_ tokens: [[Int]], logitPositions: [Int]? = nil) throws -> WhisperLogits {
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
        let names = model.decoderNames
        for layer in pastK.indices {
            feeds[names.pastK[layer]] = pastK[layer]
            feeds[names.pastV[layer]] = pastV[layer]
        }
        let out = try model.decoder.run(feeds, outputs: names.outputs)
        for layer in pastK.indices {
            pastK[layer] = try out.tensor(names.presentK[layer])
            pastV[layer] = try out.tensor(names.presentV[layer])
        }
        positions += length
        return WhisperLogits(tensor: try out.tensor("logits"), batch: batch, length: wanted.count,
                             vocabulary: model.configuration.vocabularySize)
    }

    /// Keeps the cache rows `rows` (in that order; repeats allowed): beams that survived a step.
    mutating func reorder(_ rows: [Int]) throws {
        if rows == Array(0..<batch) { return }
        pastK = try pastK.map { try Self.gather($0, rows: rows) }
        pastV = try pastV.map { try Self.gather($0, rows: rows) }
        batch = rows.count
    }

    /// Gathers along axis 0 of a `[B, …]` tensor.
    private static func gather(_ tensor: Tensor, rows: [Int]) throws -> Tensor {
        let inner = tensor.shape.dropFirst().reduce(1, *)
        var shape = tensor.shape
        shape[0] = rows.count
        return try tensor.withUnsafeBufferPointer(of: Float.self) { source in
            try Tensor(shape: shape, of: Float.self) { target in
                guard inner > 0 else { return }
                for (b, row) in rows.enumerated() {
                    (target.baseAddress! + b * inner).update(from: source.baseAddress! + row * inner, count: inner)
                }
            }
        }
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
