import Foundation

import WarbleSpeech

/// Picks the Warble voice for speech-dispatcher's settings.
///
/// A `synthesis_voice` naming an installed voice wins. Otherwise the voices of the requested language
/// are considered (all voices when none matches or no language is set), preferring the voice type's
/// gender (male…/female…), then the default voice, then the first.
public struct VoiceChooser: Sendable {
    public let voices: [VoiceDescription]
    public let defaultVoice: VoiceDescription

    public init(voices: [VoiceDescription], defaultVoice: VoiceDescription) {
        self.voices = voices
        self.defaultVoice = defaultVoice
    }

    /// The choice, and a log line when a requested voice is unknown.
    public struct Choice: Sendable, Equatable {
        public var voice: VoiceDescription
        public var warning: String?
    }

    public func choose(for settings: SpeechSettings) -> Choice {
        var warning: String?
        if let name = settings.synthesisVoice {
            if let voice = voices.first(where: { $0.id == name })
                ?? voices.first(where: { $0.id.caseInsensitiveCompare(name) == .orderedSame || $0.displayName == name }) {
                return Choice(voice: voice, warning: nil)
            }
            warning = "unknown voice '\(name)'; falling back to"
        }
        var candidates = voices
        if let language = settings.language {
            let matching = voices.filter { Self.language($0.language, matches: language) }
            if !matching.isEmpty { candidates = matching }
        }
        if let gender = Self.gender(ofVoiceType: settings.voiceType) {
            let matching = candidates.filter { $0.gender?.lowercased() == gender }
            if !matching.isEmpty { candidates = matching }
        }
        let voice = candidates.first(where: { $0.id == defaultVoice.id }) ?? candidates.first ?? defaultVoice
        return Choice(voice: voice, warning: warning.map { "\($0) '\(voice.id)'" })
    }

    /// Whether a voice's BCP 47 language serves a requested one: equal (ignoring case and "_"/"-"), or
    /// the request is the voice's primary language ("en" for "en-US").
    static func language(_ voiceLanguage: String, matches requested: String) -> Bool {
        let voice = voiceLanguage.lowercased().replacingOccurrences(of: "_", with: "-")
        let wanted = requested.lowercased().replacingOccurrences(of: "_", with: "-")
        if voice == wanted { return true }
        let voicePrimary = voice.split(separator: "-").first.map(String.init) ?? voice
        let wantedPrimary = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return voicePrimary == wantedPrimary
    }

    static func gender(ofVoiceType type: String?) -> String? {
        guard let type else { return nil }
        if type.hasPrefix("female") || type == "child_female" { return "female" }
        if type.hasPrefix("male") || type == "child_male" { return "male" }
        return nil
    }

    /// LIST VOICES lines: `name\tlanguage\tvariant`, optionally filtered like speech-dispatcher does
    /// (exact language, or its primary part; then the variant).
    public func listing(language: String? = nil, variant: String? = nil) -> [String] {
        voices.compactMap { voice in
            let variantName = voice.gender?.lowercased() ?? "none"
            if let language {
                guard Self.language(voice.language, matches: language) else { return nil }
                if let variant, variant.caseInsensitiveCompare(variantName) != .orderedSame { return nil }
            }
            return "\(voice.id)\t\(voice.language)\t\(variantName)"
        }
    }
}
