import Foundation
import WarbleSpeech

/// A repository's `generation_config.json` as transformers' `generate` reads it for sampling: the
/// settings `TransformersSampler` applies (`top_p`, `repetition_penalty`, `min_p`) are read; keys the
/// caller's `generate` call passes explicitly (`overridden`) are ignored, as transformers ignores them;
/// ids and bookkeeping keys change nothing; any other setting that differs from its no-op default is
/// refused with its name (never silently ignored). No file: the defaults (top-p 1, penalty 1, no min-p).
public struct GenerationConfigFile: Sendable, Equatable {
    public var topP: Double = 1
    public var repetitionPenalty: Float = 1
    public var minP: Double?

    public init() {}

    /// Keys that change nothing for a sampling loop that takes its end id from the tokenizer.
    static let inert: Set<String> = [
        "_from_model_config", "transformers_version", "bos_token_id", "pad_token_id", "decoder_start_token_id",
        "output_attentions", "output_hidden_states", "output_scores", "output_logits", "return_dict_in_generate",
        "renormalize_logits", "cache_implementation", "num_assistant_tokens", "num_assistant_tokens_schedule",
        "length_penalty", "early_stopping", "use_cache",
    ]

    /// Settings not implemented, with their no-op values (JSON null always counts as unset).
    static let noOps: [String: Double] = [
        "typical_p": 1, "epsilon_cutoff": 0, "eta_cutoff": 0, "top_h": 0, "no_repeat_ngram_size": 0,
        "encoder_repetition_penalty": 1, "encoder_no_repeat_ngram_size": 0, "num_beams": 1, "num_beam_groups": 1,
        "diversity_penalty": 0, "penalty_alpha": 0, "guidance_scale": 1, "num_return_sequences": 1, "min_length": 0,
    ]

    /// Reads `url`, or the defaults when there is no file there.
    public static func read(_ url: URL?, overridden: Set<String>) throws -> GenerationConfigFile {
        var config = GenerationConfigFile()
        guard let url, let data = FileManager.default.contents(atPath: url.path) else { return config }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ModelError(.badModel, "\(url.path) is not a JSON object")
        }
        var refused: [String] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) where !(value is NSNull) {
            if overridden.contains(key) || inert.contains(key) { continue }
            let number = (value as? NSNumber)?.doubleValue
            switch key {
            case "top_p":
                guard let number, number > 0, number <= 1 else { refused.append("top_p (must be in (0, 1])"); continue }
                config.topP = number
            case "repetition_penalty":
                guard let number, number > 0 else { refused.append("repetition_penalty (must be > 0)"); continue }
                config.repetitionPenalty = Float(number)
            case "min_p":
                guard let number, number >= 0, number <= 1 else { refused.append("min_p (must be in [0, 1])"); continue }
                config.minP = number
            default:
                if let noOp = noOps[key], number == noOp { continue }
                refused.append("\(key) = \(value)")
            }
        }
        guard refused.isEmpty else {
            throw ModelError(.badModel, "\(url.path) asks for generation settings Warble does not implement: "
                + refused.joined(separator: ", ") + " (implemented: top_p, repetition_penalty, min_p)")
        }
        return config
    }
}
