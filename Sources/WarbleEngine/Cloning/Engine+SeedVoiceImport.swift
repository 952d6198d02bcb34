import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// Imports a voice that the CosyVoice 3 seed app prepared offline (a directory of its files) into
    /// the library, for `model` (default: the first installed CosyVoice 3 model).
    public func importSeedAppVoice(directory: URL, name: String, model: String? = nil, language: String? = nil,
                                   replacing: Bool = false) throws -> VoiceProfile {
        try addPreparedVoice(.directory(directory), name: name, model: model, language: language, replacing: replacing)
    }

    /// Adds a NeuTTS voice from its reference's NeuCodec codes (`.npy` or raw int32, see
    /// `NeuTTSReferenceCodes`) and what the reference says, for `model` (default: the first installed
    /// NeuTTS model).
    public func addReferenceCodesVoice(name: String, codes data: Data, codesName: String, transcript: String, model: String? = nil,
                                       language: String? = nil, replacing: Bool = false) throws -> VoiceProfile {
        try addPreparedVoice(.referenceCodes(data, name: codesName, transcript: transcript), name: name, model: model,
                             language: language, replacing: replacing)
    }

    /// Keeps a voice whose conditioning was prepared elsewhere (no clip to encode) in the library.
    /// The family is the one that takes `voice`'s form (`PreparedVoiceImporting`).
    private func addPreparedVoice(_ voice: PreparedVoice, name: String, model: String?, language: String?,
                                  replacing: Bool) throws -> VoiceProfile {
        guard let (family, importer) = families.all.lazy.compactMap({ family in
            (family as? any PreparedVoiceImporting).map { (family.name, $0) }
        }).first(where: { $0.1.preparedVoiceKind == voice.kind }) else {
            throw ModelError(.badModel, "no model family of this Warble takes voices in this form")
        }
        let (displayName, pull) = (importer.displayName, importer.preparedVoiceModel)
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
            conditioning: try importer.conditioning(for: voice))
        do {
            try library.add(profile, replacing: replacing)
        } catch let error as VoiceLibraryError {
            throw ModelError(.badInput, error.message)
        }
        return profile
    }
}
