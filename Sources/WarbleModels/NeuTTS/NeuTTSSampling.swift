import Foundation

/// NeuTTS's sampling: the arguments of the authors' `generate` call (`_infer_torch`: temperature 1,
/// top-k 50, `min_new_tokens` 50, `max_length` 2048, the end id from the tokenizer) stay constants;
/// what transformers takes from the repository's `generation_config.json` (top-p, repetition penalty,
/// min-p) is read from it, with transformers' defaults (no-ops) when the file or the key is absent.
enum NeuTTSSampling {
    static let temperature: Float = 1
    static let topK = 50
    /// The keys the authors' call passes, which override the file's.
    static let overridden: Set<String> = ["do_sample", "temperature", "top_k", "max_length", "min_new_tokens",
                                          "eos_token_id", "use_cache"]

    static func file(in directory: URL) -> URL { directory.appendingPathComponent("generation_config.json") }

    /// The sampler for `config`; greedy: argmax after the penalty (Warble's option, not the authors').
    static func sampler(_ config: GenerationConfigFile, greedy: Bool = false) -> TransformersSampler {
        TransformersSampler(temperature: greedy ? 0 : temperature, topK: topK, topP: config.topP, minP: config.minP,
                            repetitionPenalty: config.repetitionPenalty)
    }

    static func read(in directory: URL) throws -> GenerationConfigFile {
        try GenerationConfigFile.read(file(in: directory), overridden: overridden)
    }
}
