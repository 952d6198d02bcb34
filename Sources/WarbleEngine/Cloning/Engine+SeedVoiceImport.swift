import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// Adds a CosyVoice 3 voice saved by the seed iOS app (its four files in `directory`) to the
    /// library as `name`, spoken by `model` (an installed CosyVoice 3 model; the first when nil).
    public func importSeedAppVoice(directory: URL, name: String, model: String? = nil, language: String? = nil,
                                   replacing: Bool = false) throws -> VoiceProfile {
        guard VoiceProfile.isValidID(name) else {
            throw ModelError(.badInput, "'\(name)' is not a usable voice name: use 1–64 letters, digits, '-', '_', '.' or ':'")
        }
        if currentStockVoices.contains(where: { $0.id == name }) {
            throw ModelError(.badInput, "'\(name)' is the name of a stock voice; choose another name")
        }
        let candidates = models(offering: .voiceEncoding).filter { $0.manifest.family == "cosyvoice3" }
        let chosen: String
        if let model {
            guard let found = candidates.first(where: { $0.manifest.id == model }) else {
                throw ModelError(.badInput, "'\(model)' is not an installed CosyVoice 3 model"
                    + (candidates.isEmpty ? "; install one with `warble models pull cosyvoice3`"
                                          : " (installed: \(candidates.map(\.manifest.id).joined(separator: ", ")))"))
            }
            chosen = found.manifest.id
        } else {
            // A voice may be imported before its model: it speaks once the model is pulled.
            chosen = candidates.first?.manifest.id ?? "cosyvoice3"
        }
        let conditioning = try CosyVoice3VoiceImport.conditioning(directory: directory)
        let profile = VoiceProfile(
            id: name, language: language ?? installed[chosen]?.manifest.languages.first ?? "en", model: chosen, family: "cosyvoice3",
            conditioning: conditioning)
        do {
            try library.add(profile, replacing: replacing)
        } catch let error as VoiceLibraryError {
            throw ModelError(.badInput, error.message)
        }
        return profile
    }
}
