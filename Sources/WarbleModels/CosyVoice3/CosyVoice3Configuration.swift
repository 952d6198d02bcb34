import WarbleSpeech

/// The `config` of a CosyVoice 3 manifest. Every key is optional: the files are found by their
/// published names (`CosyVoice3Files`), and the rest takes the reference's values.
public struct CosyVoice3Configuration: Sendable, Equatable, Codable {
    /// `fp32` or `fp16` (the suffix of the LLM and flow files); nil: whichever is present, fp32 first.
    public var variant: String?
    /// The seed of a request's sampling and noise when the caller gives none.
    public var seed: UInt64
    /// Voice id → a JSON file (relative to the model's directory) holding a `VoiceConditioning`
    /// (`speakerPrompt`): voices that come with the model.
    public var voices: [String: String]
    /// Voice used when a request names none.
    public var defaultVoice: String?

    public init(variant: String? = nil, seed: UInt64 = 1986, voices: [String: String] = [:], defaultVoice: String? = nil) {
        self.variant = variant
        self.seed = seed
        self.voices = voices
        self.defaultVoice = defaultVoice
    }

    /// Missing keys take the defaults above.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = CosyVoice3Configuration()
        variant = try c.decodeIfPresent(String.self, forKey: .variant)
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? defaults.seed
        voices = try c.decodeIfPresent([String: String].self, forKey: .voices) ?? [:]
        defaultVoice = try c.decodeIfPresent(String.self, forKey: .defaultVoice)
        if let variant, !CosyVoice3Files.variants.contains(variant) {
            throw DecodingError.dataCorruptedError(forKey: .variant, in: c,
                debugDescription: "variant '\(variant)' is not one of " + CosyVoice3Files.variants.joined(separator: ", "))
        }
    }
}
