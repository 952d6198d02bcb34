import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// Imports a voice that the CosyVoice 3 seed app prepared offline (a directory of its files) into
    /// the library, for `model` (default: the first installed CosyVoice 3 model).
    public func importSeedAppVoice(directory: URL, name: String, model: String? = nil, language: String? = nil,
                                   replacing: Bool = false) throws -> VoiceProfile {
        try addPreparedVoice(name: name, family: "cosyvoice3", displayName: "CosyVoice 3", pull: "cosyvoice3", model: model,
                             language: language, replacing: replacing) {
            try CosyVoice3VoiceImport.conditioning(directory: directory)
        }
    }

    /// Adds a NeuTTS voice from its reference's NeuCodec codes (`.npy` or raw int32, see
    /// `NeuTTSReferenceCodes`) and what the reference says, for `model` (default: the first installed
    /// NeuTTS model).
    public func addReferenceCodesVoice(name: String, codes data: Data, codesName: String, transcript: String, model: String? = nil,
                                       language: String? = nil, replacing: Bool = false) throws -> VoiceProfile {
        try addPreparedVoice(name: name, family: "neutts", displayName: "NeuTTS", pull: "neutts-nano", model: model,
                             language: language, replacing: replacing) {
            try NeuTTSVoice(codes: try NeuTTSReferenceCodes.read(data, name: codesName), transcript: transcript).conditioning
        }
    }

    /// Keeps a voice whose conditioning was prepared elsewhere (no clip to encode) in the library.
    private func addPreparedVoice(name: String, family: String, displayName: String, pull: String, model: String?, language: String?,
                                  replacing: Bool, conditioning make: () throws -> VoiceConditioning) throws -> VoiceProfile {
        guard VoiceProfile.isValidID(name) else {
            throw ModelError(.badInput, "'\(name)' is not a usable voice name: use 1–64 letters, digits, '-', '_', '.' or ':'")
        }
        if currentStockVoices.contains(where: { $0.id == name }) {
            throw ModelError(.badInput, "'\(name)' is the name of a stock voice; choose another name")
        }
        let candidates = models(offering: .synthesis).filter { $0.manifest.family == family }
        let chosen: String
        if let model {
            guard let found = candidates.first(where: { $0.manifest.id == model || $0.manifest.family == model }) else {
                throw ModelError(.badInput, "'\(model)' is not an installed \(displayName) model"
                    + (candidates.isEmpty ? "; install one with `warble models pull \(pull)`"
                                          : " (installed: \(candidates.map(\.manifest.id).joined(separator: ", ")))"))
            }
            chosen = found.manifest.id
        } else {
            // A voice may be added before its model: it speaks once the model is pulled.
            chosen = candidates.first?.manifest.id ?? pull
        }
        let profile = VoiceProfile(
            id: name, language: language ?? installed[chosen]?.manifest.languages.first ?? "en", model: chosen, family: family,
            conditioning: try make())
        do {
            try library.add(profile, replacing: replacing)
        } catch let error as VoiceLibraryError {
            throw ModelError(.badInput, error.message)
        }
        return profile
    }
}
