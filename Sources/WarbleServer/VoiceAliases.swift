import WarbleSpeech

/// OpenAI's voice names (what Open WebUI, Home Assistant and the SDK examples send) mapped to
/// installed voices, as Kokoro-FastAPI does. Each name has a list of preferences, tried in order: the
/// Kokoro v1.0 English voice of the same name or character where installed; then, by the name's gender
/// (OpenAI's female and male voices), the server's default voice when it is of that gender, an English voice
/// of that gender, a voice of that gender whose model speaks English; last the default voice.
/// `warble serve --voice-alias NAME=VOICE` puts VOICE first for NAME (or adds a name).
/// An installed voice whose id is the same as an alias always wins.
public struct VoiceAliases: Sendable, Equatable {
    /// Name → voice ids in order of preference.
    public private(set) var table: [String: [String]]

    /// The built-in table: the catalogue's (`voice-aliases.json`; empty when it cannot be found).
    public static let openAI = VoiceAliases(table: ModelDefaults.current?.voiceAliases ?? [:])

    /// The gender of each of OpenAI's voices, as its voice library describes them.
    public static let genders: [String: String] = [
        "alloy": "female", "coral": "female", "nova": "female", "sage": "female", "shimmer": "female", "marin": "female",
        "ash": "male", "ballad": "male", "echo": "male", "fable": "male", "onyx": "male", "verse": "male", "cedar": "male",
    ]

    public init(table: [String: [String]]) {
        self.table = table
    }

    /// The table with `voice` first for `name` (a new name is added).
    public func overriding(_ name: String, with voice: String) -> VoiceAliases {
        var copy = self
        copy.table[name.lowercased(), default: []].removeAll { $0 == voice }
        copy.table[name.lowercased(), default: []].insert(voice, at: 0)
        return copy
    }

    /// Parses `NAME=VOICE` (the command-line form); nil when malformed.
    public static func parseOverride(_ text: String) -> (name: String, voice: String)? {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1])
    }

    /// The voice `name` stands for among `installed` (falling back to `defaultVoice`), or nil when `name`
    /// is no alias. `speaksEnglish` tells whether a voice's model speaks English (a Japanese Kokoro voice does).
    public func resolve(_ name: String, installed: [VoiceDescription], defaultVoice: String?,
                        speaksEnglish: (VoiceDescription) -> Bool = { _ in false }) -> String? {
        guard let preferences = table[name.lowercased()] else { return nil }
        let ids = Set(installed.map(\.id))
        if let preferred = preferences.first(where: ids.contains) { return preferred }
        let fallback = installed.first { $0.id == defaultVoice }
        guard let gender = Self.genders[name.lowercased()] else { return fallback?.id }
        let ofGender = installed.filter { $0.gender?.lowercased() == gender }
        return (fallback?.gender?.lowercased() == gender ? fallback?.id : nil)
            ?? ofGender.first { $0.language.lowercased().hasPrefix("en") }?.id
            ?? ofGender.first(where: speaksEnglish)?.id
            ?? fallback?.id
    }
}
