import Foundation
import ONNXRuntime
import WarbleSpeech

/// One request's speech tokens, produced one at a time (so that streaming can start on the first
/// ones): the prefill, then a decode step per token with the stacked KV cache fed back in the
/// element type the session reports, RAS sampling from a generator seeded per request, and the
/// reference's silence filter. Cancelling stops before the next step and drops the cache.
struct CosyVoice3TokenGeneration {
    let model: CosyVoice3LanguageModel
    let text: [Int]
    let promptTokens: [Int]
    let minLength: Int
    let maxLength: Int
    private var generator: SplitMix64
    private var cache: KVCache?
    /// The prefill's cache and its length, until the first decode step takes it.
    private var prefilled: (tensor: Tensor, length: Int)?
    /// The last position's hidden state, or nil before the prefill.
    private var hidden: [Float]?
    /// Every token sampled (the RAS window looks at these, silent ones included).
    private(set) var produced: [Int] = []
    /// The id that ended the loop (nil when it reached `maxLength`, or is still running).
    private(set) var stopID: Int?
    private(set) var isFinished = false
    private var silentRun = 0
    /// Steps run (LLM calls after the prefill included).
    private(set) var steps = 0

    /// FSQ silence and breath tokens (the reference's `silent_tokens`).
    static let silentTokens: Set<Int> = [1, 2, 28, 29, 55, 248, 494, 2241, 2242, 2322, 2323]
    /// More silent tokens in a row than this are dropped.
    static let maxSilentRun = 5

    init(model: CosyVoice3LanguageModel, text: [Int], promptTokens: [Int], minLength: Int, maxLength: Int, seed: UInt64) {
        self.model = model
        self.text = text
        self.promptTokens = promptTokens
        self.minLength = minLength
        self.maxLength = maxLength
        generator = SplitMix64(seed: seed)
    }

    /// Whether a KV cache is held (false once finished or cancelled: it was dropped).
    var holdsCache: Bool { cache != nil || prefilled != nil }

    /// The next token that passes the silence filter, or nil when the utterance has ended.
    mutating func next(cancel: CancellationToken) throws -> Int? {
        while let token = try sample(cancel: cancel) {
            if Self.silentTokens.contains(token) {
                silentRun += 1
                if silentRun > Self.maxSilentRun { continue }
            } else {
                silentRun = 0
            }
            return token
        }
        return nil
    }

    /// Every remaining token (after the filter).
    mutating func all(cancel: CancellationToken) throws -> [Int] {
        var tokens: [Int] = []
        while let token = try next(cancel: cancel) { tokens.append(token) }
        return tokens
    }

    /// The next sampled token (before the silence filter), or nil at a stop id or the length limit.
    private mutating func sample(cancel: CancellationToken) throws -> Int? {
        guard !isFinished else { return nil }
        guard produced.count < maxLength else { return finish(stop: nil) }
        if cancel.isCancelled {
            cache = nil
            prefilled = nil
            hidden = nil
            isFinished = true
            throw CancellationError()
        }
        do {
            try cancel.withRunOptions { options in
                if hidden == nil { try prefill(options: options) }
                var logits = try logitsForHidden(options: options)
                if produced.count < minLength {
                    for id in CosyVoice3LanguageModel.speechTokenCount..<logits.count { logits[id] = -.infinity }
                }
                let token = model.sampler.sample(logits, produced: produced, using: &generator)
                if token >= CosyVoice3LanguageModel.speechTokenCount {
                    _ = finish(stop: token)
                    return
                }
                produced.append(token)
                if produced.count < maxLength { try step(token, options: options) }
            }
        } catch {
            cache = nil
            prefilled = nil
            hidden = nil
            isFinished = true
            throw error
        }
        return isFinished ? nil : produced.last
    }

    private mutating func finish(stop: Int?) -> Int? {
        stopID = stop
        isFinished = true
        cache = nil
        prefilled = nil
        hidden = nil
        return nil
    }

    private mutating func prefill(options: RunOptions) throws {
        let input = try model.promptInput(text: text, promptTokens: promptTokens, options: options)
        let initial = model.initial
        let outputs = try initial.run([
            "inputs_embeds": try initial.floats(input.values, shape: [1, input.count, input.width], for: "inputs_embeds"),
            "attention_mask": try initial.floats([Float](repeating: 1, count: input.count), shape: [1, input.count], for: "attention_mask"),
        ], options: options)
        let stacked = try outputs.tensor("past_key_values")
        guard stacked.elementType == model.cacheElementType else {
            throw ModelError(.badModel, "the initial pass made a KV cache of \(stacked.elementType); the decode step takes \(model.cacheElementType)")
        }
        var shape = stacked.shape
        guard shape.count == 5, shape[3] == input.count else {
            throw ModelError(.badModel, "the initial pass's past_key_values has shape \(shape); expected [layers × 2, 1, 2, \(input.count), head]")
        }
        shape[3] = 0
        // The decode graph's cache starts empty; its first step is fed the prefill's tensor as it came
        // (the prefill names it `past_key_values`, the decode graph's output `new_past_key_values`).
        cache = KVCache(entries: [CosyVoice3LanguageModel.cacheEntry],
                        empty: [try RawTensor.zeros(elementType: stacked.elementType, shape: shape)], batch: 1)
        prefilled = (stacked, input.count)
        hidden = try Self.lastRow(outputs, "hidden_states")
        steps += 1
    }

    private mutating func step(_ token: Int, options: RunOptions) throws {
        guard var cache else { throw ModelError(.failed, "the LLM's KV cache is gone") }
        let embedded = try model.embed([token], with: model.speechEmbedding, input: "token", output: "embedded", options: options)
        let decode = model.decode
        let past = prefilled?.length ?? cache.length
        var feeds: [String: Tensor] = [
            "inputs_embeds": try decode.floats(embedded.values, shape: [1, 1, embedded.width], for: "inputs_embeds"),
            "attention_mask": try decode.floats([Float](repeating: 1, count: past + 1), shape: [1, past + 1], for: "attention_mask"),
        ]
        cache.feed(into: &feeds)
        if let prefilled { feeds["past_key_values"] = prefilled.tensor }
        let outputs = try decode.run(feeds, options: options)
        try cache.update(from: outputs, added: past + 1 - cache.length)
        prefilled = nil
        self.cache = cache
        hidden = try Self.lastRow(outputs, "hidden_states")
        steps += 1
    }

    private func logitsForHidden(options: RunOptions) throws -> [Float] {
        guard let hidden else { throw ModelError(.failed, "no hidden state to decode") }
        let decoder = model.decoder
        let outputs = try decoder.run(["hidden_state": try decoder.floats(hidden, shape: [1, 1, hidden.count], for: "hidden_state")],
                                      options: options)
        return try ModelTensors.read(outputs, "logits").values
    }

    private static func lastRow(_ outputs: RunOutputs, _ name: String) throws -> [Float] {
        try ModelTensors.lastRow(outputs, name).values
    }
}
