import WarbleSpeech

/// The `config` of a Kokoro manifest (written by scripts/models/kokoro.sh): its files, the shape of
/// its voices' style tables, the espeak-ng voice of its text front end.
public struct KokoroConfiguration: Sendable, Equatable, Codable {
    /// The ONNX file, relative to the model's directory.
    public var model: String
    /// The symbol vocabulary: `{"vocab": {symbol: id}}`, or a tokenizer.json with `model.vocab`
    /// (onnx-community's layout).
    public var vocab: String
    /// Voice name (without the `kokoro-` prefix) → its style table file (rows × width float32).
    public var voices: [String: String]
    public var styleRows: Int
    public var styleWidth: Int
    /// Whether the ONNX file uses Warble's fused operators (tools/models/fuse_snake.py).
    public var warbleOperators: Bool
    public var espeakVoice: String
    /// The most symbols one run takes.
    public var maxPhonemes: Int
    /// Voice name (without the prefix) used when a request names none.
    public var defaultVoice: String?
    /// The espeak-ng voice of each voice that speaks another language than `espeakVoice`
    /// (Kokoro v1.0's prefixes: `b` British English, `e` Spanish, `f` French, ...).
    public var voiceLanguages: [String: String]

    public init(model: String = "model.onnx", vocab: String = "vocab.json", voices: [String: String] = [:],
                styleRows: Int = 510, styleWidth: Int = 256, warbleOperators: Bool = false, espeakVoice: String = "en-us",
                maxPhonemes: Int = 510, defaultVoice: String? = nil, voiceLanguages: [String: String] = [:]) {
        self.model = model
        self.vocab = vocab
        self.voices = voices
        self.styleRows = styleRows
        self.styleWidth = styleWidth
        self.warbleOperators = warbleOperators
        self.espeakVoice = espeakVoice
        self.maxPhonemes = maxPhonemes
        self.defaultVoice = defaultVoice
        self.voiceLanguages = voiceLanguages
    }

    /// Missing keys take the defaults above.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = KokoroConfiguration()
        model = try c.decodeIfPresent(String.self, forKey: .model) ?? defaults.model
        vocab = try c.decodeIfPresent(String.self, forKey: .vocab) ?? defaults.vocab
        voices = try c.decodeIfPresent([String: String].self, forKey: .voices) ?? defaults.voices
        styleRows = try c.decodeIfPresent(Int.self, forKey: .styleRows) ?? defaults.styleRows
        styleWidth = try c.decodeIfPresent(Int.self, forKey: .styleWidth) ?? defaults.styleWidth
        warbleOperators = try c.decodeIfPresent(Bool.self, forKey: .warbleOperators) ?? defaults.warbleOperators
        espeakVoice = try c.decodeIfPresent(String.self, forKey: .espeakVoice) ?? defaults.espeakVoice
        maxPhonemes = try c.decodeIfPresent(Int.self, forKey: .maxPhonemes) ?? defaults.maxPhonemes
        defaultVoice = try c.decodeIfPresent(String.self, forKey: .defaultVoice)
        voiceLanguages = try c.decodeIfPresent([String: String].self, forKey: .voiceLanguages) ?? [:]
        guard styleRows > 0, styleWidth > 0, maxPhonemes > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .styleRows, in: c,
                debugDescription: "styleRows, styleWidth and maxPhonemes must be positive")
        }
    }
}
