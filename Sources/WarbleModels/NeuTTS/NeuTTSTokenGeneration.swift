import Foundation
import ONNXRuntime
import WarbleSpeech

/// One utterance's speech codes, written as the authors' torch path writes them (`_infer_torch`:
/// `generate(do_sample=True, temperature=1.0, top_k=50, min_new_tokens=50, max_length=2048,
/// eos_token_id=<|SPEECH_GENERATION_END|>)`): the prompt in one step, then a token a step; the end
/// token is barred for the first 50 new tokens; the context (prompt and new tokens) never exceeds the
/// backbone's; top-p, repetition penalty and min-p come from the repository's generation_config.json
/// (`NeuTTSSampling`), applied in transformers' order (`TransformersSampler`). Tokens that are not `<|speech_N|>` are written but carry no code (the authors' regex
/// skips them; their streaming still counts them). Memory is flat: each step's presents replace the cache, which is dropped the moment
/// the loop ends, fails or is cancelled.
struct NeuTTSTokenGeneration {
    static let minNewTokens = 50

    let backbone: NeuTTSBackbone
    let vocabulary: NeuTTSVocabulary
    let sampler: TransformersSampler
    private var generator: SplitMix64
    private var cache: KVCache?
    private var pending: [Int]
    /// Every input id so far (prompt and written), kept only when the repetition penalty applies.
    private var inputs: Set<Int>
    private let promptLength: Int
    /// New tokens for which the end token is barred (the authors' 50; a benchmark bars it throughout).
    private let barEndFor: Int
    /// Every token written (the end token included when it came).
    private(set) var written: [Int] = []
    private(set) var isFinished = false

    init(backbone: NeuTTSBackbone, vocabulary: NeuTTSVocabulary, prompt: [Int], sampler: TransformersSampler, seed: UInt64,
         minNewTokens: Int = NeuTTSTokenGeneration.minNewTokens) throws {
        guard prompt.count < backbone.context else {
            throw ModelError(.badInput, "the NeuTTS prompt holds \(prompt.count) tokens (the reference's codes and phonemes, and the "
                + "text's); the backbone takes \(backbone.context): use a shorter reference or shorter text")
        }
        self.backbone = backbone
        self.vocabulary = vocabulary
        self.sampler = sampler
        generator = SplitMix64(seed: seed)
        pending = prompt
        inputs = sampler.penalises ? Set(prompt) : []
        promptLength = prompt.count
        barEndFor = minNewTokens
    }

    var holdsCache: Bool { cache != nil }
    /// Whether the end token ended the loop (false when the context ran out).
    var stopped: Bool { written.last == vocabulary.speechEnd }

    /// The next token written before the end token (a `<|speech_N|>` token or, rarely, another), or nil
    /// when the utterance has ended.
    mutating func next(cancel: CancellationToken) throws -> Int? {
        guard !isFinished else { return nil }
        guard promptLength + written.count < backbone.context else { finish(); return nil }
        // A cancelled token throws before the run; a failed or cancelled step drops the cache.
        let token: Int
        do { token = try cancel.withRunOptions { try step(options: $0) } } catch { finish(); throw error }
        if token == vocabulary.speechEnd { finish(); return nil }
        return token
    }

    /// The codes of every remaining token (what the authors' regex finds in their text).
    mutating func codes(cancel: CancellationToken) throws -> [Int] {
        var codes: [Int] = []
        while let token = try next(cancel: cancel) {
            if let code = vocabulary.code(of: token) { codes.append(code) }
        }
        return codes
    }

    private mutating func finish() {
        isFinished = true
        cache = nil
        pending = []
    }

    private mutating func step(options: RunOptions) throws -> Int {
        var cache = try self.cache ?? backbone.emptyCache()
        var logits = try backbone.step(pending, cache: &cache, options: options)
        self.cache = cache
        if written.count < barEndFor, logits.indices.contains(vocabulary.speechEnd) {
            logits[vocabulary.speechEnd] = -.infinity
        }
        var draws = generator
        let token = sampler.choose(logits, inputs: inputs, uniform: { draws.uniform() })
        generator = draws
        written.append(token)
        if sampler.penalises { inputs.insert(token) }
        pending = [token]
        return token
    }
}
