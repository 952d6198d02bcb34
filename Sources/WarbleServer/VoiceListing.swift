import WarbleSpeech

/// One installed voice as `GET /v1/audio/voices` and `warble voices --json` both print it, so that the
/// two agree on every field: `name` (the display name), `sample_rate`, `default` (the default voice).
package struct VoiceListing: Codable, Equatable, Sendable {
    package var id: String
    package var name: String
    package var model: String
    package var language: String
    package var sampleRate: Int
    package var gender: String?
    package var isDefault: Bool
    /// OpenAI voice names that stand for this voice on a server (nil, and left out, outside one).
    package var aliases: [String]?

    enum CodingKeys: String, CodingKey {
        case id, name, model, language, gender, aliases
        case sampleRate = "sample_rate"
        case isDefault = "default"
    }

    package init(_ voice: VoiceDescription, isDefault: Bool, aliases: [String]? = nil) {
        id = voice.id
        name = voice.displayName
        model = voice.model
        language = voice.language
        sampleRate = voice.sampleRate
        gender = voice.gender
        self.isDefault = isDefault
        self.aliases = aliases
    }
}
