import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// The voice a mix names: its parts must be stock voices (by id or name) of one model.
    func mixedVoice(_ written: VoiceMix) throws -> VoiceDescription {
        let mix = try resolved(written)
        let parts = mix.parts.compactMap { part in voices.first { $0.id == part.voice } }
        let model = parts[0].model
        guard parts.allSatisfy({ $0.model == model }) else {
            throw ModelError(.badInput, "the voices of a mix must belong to one model; '\(mix.id)' mixes "
                + Set(parts.map(\.model)).sorted().joined(separator: " and "))
        }
        return VoiceDescription(id: mix.id, displayName: "mix of " + parts.map(\.displayName).joined(separator: " and "),
                                language: parts[0].language, model: model, sampleRate: parts[0].sampleRate)
    }

    /// The mix with every part named by its stock voice id (an unknown part is an error listing the voices).
    private func resolved(_ mix: VoiceMix) throws -> VoiceMix {
        let stock = voices.filter { voice in !libraryVoices.profiles.contains { $0.id == voice.id } }
        let naming = families.all.compactMap { $0 as? any StockVoiceNaming }
        return try mix.mapVoices { name in
            let ids = naming.compactMap { $0.stockVoiceID(named: name) }
            if let voice = stock.first(where: { $0.id == name || $0.displayName == name || ids.contains($0.id) }) {
                return voice.id
            }
            throw ModelError(.unknownVoice, "unknown voice '\(name)' in the mix; a mix takes stock voices: "
                + stock.map(\.id).joined(separator: ", "))
        }
    }

    /// The profile a mixed voice speaks with (nil when `voice` is no mix).
    func mixedProfile(_ voice: VoiceDescription, renderer: any UtteranceRenderer) throws -> VoiceProfile? {
        guard let mix = try VoiceMix.parse(voice.id) else { return nil }
        guard let mixing = renderer as? any VoiceMixing else {
            throw ModelError(.badInput, "\(voice.model) cannot mix voices; Kokoro models can")
        }
        return VoiceProfile(id: voice.id, displayName: voice.displayName, language: voice.language, model: voice.model,
                            family: installed[voice.model]?.manifest.family ?? "", created: Date(timeIntervalSince1970: 0),
                            conditioning: try mixing.conditioning(for: mix))
    }
}
