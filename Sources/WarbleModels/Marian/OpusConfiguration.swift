import Foundation
import WarbleSpeech

/// What an Opus-MT manifest's `config` adds (tools/marian/convert_opus.py writes it from the
/// repository's config.json, generation_config.json and vocab.json): the ids and how transformers'
/// `generate` decodes the model. Read from `MarianConfiguration` when its `kind` is "opus".
public struct OpusGeneration: Sendable, Equatable, Codable {
    /// The decoder's first input (`decoder_start_token_id`, the pad id for Opus-MT).
    public var start: Int
    public var pad: Int
    public var unk: Int
    /// Output length at most, the start token included (`max_length`).
    public var maxLength: Int
    public var lengthPenalty: Double
    public var minLength: Int
    /// "false" (transformers' default heuristic), "true" or "never".
    public var earlyStopping: String
    /// Ids never generated (`bad_words_ids` of one token each).
    public var badWords: [Int]
    /// The id forced at the last position (`forced_eos_token_id`).
    public var forcedEOS: Int?
    /// Log-softmax again after the processors (`renormalize_logits`).
    public var renormalize: Bool
    public var tokens: OpusTokens
    public var separateVocabularies: Bool
    /// A multi-target model's `>>xxx<<` token of each target language (code → token).
    public var languageTokens: [String: String]

    enum CodingKeys: String, CodingKey {
        case start, pad, unk, maxLength, lengthPenalty, minLength, earlyStopping, badWords, forcedEOS, renormalize, tokens,
             separateVocabularies, languageTokens
    }

    public init(start: Int = 0, pad: Int = 0, unk: Int = 1, maxLength: Int = 512) {
        self.start = start
        self.pad = pad
        self.unk = unk
        self.maxLength = maxLength
        lengthPenalty = 1
        minLength = 0
        earlyStopping = "false"
        badWords = []
        forcedEOS = nil
        renormalize = false
        tokens = .init()
        separateVocabularies = false
        languageTokens = [:]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        start = try c.decode(Int.self, forKey: .start)
        pad = try c.decodeIfPresent(Int.self, forKey: .pad) ?? start
        unk = try c.decodeIfPresent(Int.self, forKey: .unk) ?? 1
        maxLength = try c.decodeIfPresent(Int.self, forKey: .maxLength) ?? 512
        lengthPenalty = try c.decodeIfPresent(Double.self, forKey: .lengthPenalty) ?? 1
        minLength = try c.decodeIfPresent(Int.self, forKey: .minLength) ?? 0
        earlyStopping = try c.decodeIfPresent(String.self, forKey: .earlyStopping) ?? "false"
        badWords = try c.decodeIfPresent([Int].self, forKey: .badWords) ?? []
        forcedEOS = try c.decodeIfPresent(Int.self, forKey: .forcedEOS)
        renormalize = try c.decodeIfPresent(Bool.self, forKey: .renormalize) ?? false
        tokens = try c.decodeIfPresent(OpusTokens.self, forKey: .tokens) ?? .init()
        separateVocabularies = try c.decodeIfPresent(Bool.self, forKey: .separateVocabularies) ?? false
        languageTokens = try c.decodeIfPresent([String: String].self, forKey: .languageTokens) ?? [:]
        guard (2...4096).contains(maxLength) else {
            throw DecodingError.dataCorruptedError(forKey: .maxLength, in: c, debugDescription: "maxLength must be 2–4096")
        }
        guard ["false", "true", "never"].contains(earlyStopping) else {
            throw DecodingError.dataCorruptedError(forKey: .earlyStopping, in: c, debugDescription: "earlyStopping is false, true or never")
        }
        guard lengthPenalty.isFinite, abs(lengthPenalty) <= 10 else {
            throw DecodingError.dataCorruptedError(forKey: .lengthPenalty, in: c, debugDescription: "lengthPenalty must be in [-10, 10]")
        }
    }
}
