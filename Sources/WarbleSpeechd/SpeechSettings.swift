import Foundation

/// The voice settings speech-dispatcher sends with SET before every message, and what they mean for
/// a Warble request.
public struct SpeechSettings: Sendable, Equatable {
    public enum Punctuation: String, Sendable { case none, some, most, all }
    public enum CapitalLetters: String, Sendable { case none, spell, icon }

    /// speech-dispatcher's −100…100 scales (0 is normal; volume's default is 100).
    public var rate = 0
    public var pitch = 0
    public var pitchRange = 0
    public var volume = 100
    public var punctuation: Punctuation = .none
    public var spelling = false
    public var capitalLetters: CapitalLetters = .none
    /// The symbolic voice type, lowercased: male1…3, female1…3, child_male, child_female.
    public var voiceType: String?
    /// A voice name from LIST VOICES.
    public var synthesisVoice: String?
    /// A language code such as "en" or "en-US".
    public var language: String?

    public init() {}

    /// Applies one `name=value` line. "NULL" clears a string setting. Unknown names are ignored (newer
    /// servers may send more); a malformed value throws.
    public mutating func apply(_ setting: Setting) throws(SpeechdError) {
        let value = setting.value.trimmingCharacters(in: .whitespacesAndNewlines)
        let text: String? = value == "NULL" || value.isEmpty ? nil : value
        switch setting.name {
        case "rate": rate = try Self.scale(value, setting.name)
        case "pitch": pitch = try Self.scale(value, setting.name)
        case "pitch_range": pitchRange = try Self.scale(value, setting.name)
        case "volume": volume = try Self.scale(value, setting.name)
        case "punctuation_mode":
            guard let text else { return }
            guard let mode = Punctuation(rawValue: text.lowercased()) else {
                throw SpeechdError(.badSetting, "punctuation_mode '\(value)' is not none, some, most or all")
            }
            punctuation = mode
        case "spelling_mode":
            guard let text else { return }
            switch text.lowercased() {
            case "on": spelling = true
            case "off": spelling = false
            default: throw SpeechdError(.badSetting, "spelling_mode '\(value)' is not on or off")
            }
        case "cap_let_recogn":
            guard let text else { return }
            guard let mode = CapitalLetters(rawValue: text.lowercased()) else {
                throw SpeechdError(.badSetting, "cap_let_recogn '\(value)' is not none, spell or icon")
            }
            capitalLetters = mode
        case "voice": voiceType = text?.lowercased()
        case "synthesis_voice": synthesisVoice = text
        case "language": language = text
        default: break
        }
    }

    /// Speaking-rate factor: 3^(rate/100), so −100 is a third of the normal rate and 100 three times it.
    public var rateFactor: Double { Self.power(3, rate) }

    /// Pitch factor: 2^(pitch/200), half an octave down at −100 and up at 100. The models cannot change
    /// pitch, so the module plays the audio faster or slower (see `SpeechModule`).
    public var pitchFactor: Double { Self.power(2, pitch, over: 200) }

    /// Amplitude factor: 100 (speech-dispatcher's default) is unchanged, 0 half, −100 silent.
    public var volumeFactor: Double { Double(min(max(volume, -100), 100) + 100) / 200 }

    private static func power(_ base: Double, _ value: Int, over scale: Double = 100) -> Double {
        let clamped = Double(min(max(value, -100), 100))
        return pow(base, clamped / scale)
    }

    private static func scale(_ value: String, _ name: String) throws(SpeechdError) -> Int {
        guard let number = Int(value) else {
            throw SpeechdError(.badSetting, "\(name) '\(value)' is not a whole number (accepted: -100 to 100)")
        }
        return min(max(number, -100), 100)
    }
}
