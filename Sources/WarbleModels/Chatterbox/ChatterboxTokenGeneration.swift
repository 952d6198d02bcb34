import Foundation
import ONNXRuntime
import WarbleSpeech

/// One utterance's speech tokens, written one step at a time as the model card's ONNX loop does:
/// step 0 is `concat(audio_features, embed_tokens(text ids))` (START is not fed) with the mask all
/// ones and positions 0..<L; each later step feeds the token written, one more mask position, the
/// next position id, and the presents as the pasts (bytes unchanged: an f16 cache stays f16). Every
/// token written joins the penalised set, which starts as {START}. At most 1,024 steps.
///
/// Memory is flat by construction: each step's presents replace the cache and nothing else grows but
/// the token list. The cache is dropped the moment the loop ends, fails or is cancelled.
struct ChatterboxTokenGeneration {
    let model: ChatterboxLanguageModel
    let sampler: ChatterboxSampler
    let maxSteps: Int
    private var generator: SplitMix64
    private var cache: KVCache?
    /// The next step's inputs (nil before step 0 and once finished).
    private var pending: (embeds: [Float], rows: Int)?
    private var prefill: (features: [Float], rows: Int, text: [Int])?
    private var position = 0
    private var penalised: Set<Int> = [ChatterboxLanguageModel.start]
    /// Every token written (STOP included when it came).
    private(set) var written: [Int] = []
    private(set) var isFinished = false

    /// `features`: the voice's `audio_features` rows ([rows × width], f32).
    init(model: ChatterboxLanguageModel, features: [Float], featureRows: Int, text: [Int], sampler: ChatterboxSampler,
         seed: UInt64, maxSteps: Int = ChatterboxLanguageModel.maxNewTokens) {
        self.model = model
        self.sampler = sampler
        self.maxSteps = maxSteps
        generator = SplitMix64(seed: seed)
        prefill = (features, featureRows, text)
    }

    var holdsCache: Bool { cache != nil }
    /// Whether STOP ended the loop (false when it ran out of steps).
    var stopped: Bool { written.last == ChatterboxLanguageModel.stop }
    /// The speech tokens (the written ones without STOP or any id ≥ 6561, as `tts_turbo.py` keeps them).
    var speech: [Int] { written.filter { $0 < ChatterboxLanguageModel.speechCodes } }

    /// The next speech token, or nil when the utterance has ended.
    mutating func next(cancel: CancellationToken) throws -> Int? {
        while !isFinished {
            guard written.count < maxSteps else { finish(); return nil }
            // A cancelled token throws before the run; a failed or cancelled step drops the cache.
            let token: Int
            do { token = try cancel.withRunOptions { try step(options: $0) } } catch { finish(); throw error }
            if token == ChatterboxLanguageModel.stop { finish(); return nil }
            if token < ChatterboxLanguageModel.speechCodes { return token }
        }
        return nil
    }

    /// Every remaining speech token.
    mutating func all(cancel: CancellationToken) throws -> [Int] {
        var tokens: [Int] = []
        while let token = try next(cancel: cancel) { tokens.append(token) }
        return tokens
    }

    private mutating func finish() {
        isFinished = true
        cache = nil
        pending = nil
        prefill = nil
    }

    /// Runs one step; returns the token written.
    private mutating func step(options: RunOptions) throws -> Int {
        let graph = model.languageModel
        if let prefill {
            let text = try model.embed(prefill.text, options: options)
            pending = (prefill.features + text, prefill.rows + prefill.text.count)
            cache = try model.emptyCache()
            self.prefill = nil
        }
        guard let input = pending, var cache else { throw ModelError(.failed, "Chatterbox's language model has no input") }
        let total = cache.length + input.rows
        var feeds: [String: Tensor] = [
            "inputs_embeds": try graph.floats(input.embeds, shape: [1, input.rows, model.width], for: "inputs_embeds"),
            "attention_mask": try StepInputs.attentionMask(total: total, batch: 1),
            "position_ids": try StepInputs.positions(start: position, count: input.rows, batch: 1),
        ]
        cache.feed(into: &feeds)
        let outputs = try graph.run(feeds, options: options)
        let (last, shape) = try ModelTensors.lastRow(outputs, "logits")
        guard shape.count == 3, shape[1] == input.rows, let vocabulary = shape.last, vocabulary > ChatterboxLanguageModel.stop else {
            throw ModelError(.badModel, "the language model's logits are \(shape); expected [1, \(input.rows), 6563]")
        }
        var draws = generator
        let token = sampler.choose(last, penalised: penalised, uniform: { draws.uniform() })
        generator = draws
        written.append(token)
        penalised.insert(token)
        position += input.rows
        if token != ChatterboxLanguageModel.stop {
            try cache.update(from: outputs, added: input.rows)
            self.cache = cache
            pending = (try model.embed([token], options: options), 1)
        }
        return token
    }
}
