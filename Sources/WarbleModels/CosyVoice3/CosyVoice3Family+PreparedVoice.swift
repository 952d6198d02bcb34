import Foundation
import WarbleSpeech

/// Voices the CosyVoice 3 seed app prepared offline (a directory of its files): `warble voice import`.
extension CosyVoice3Family: PreparedVoiceImporting {
    public var preparedVoiceKind: PreparedVoice.Kind { .directory }
    public var displayName: String { "CosyVoice 3" }
    public var preparedVoiceModel: String { "cosyvoice3" }

    public func conditioning(for voice: PreparedVoice) throws -> VoiceConditioning {
        guard case .directory(let directory) = voice else {
            throw ModelError(.badInput, "CosyVoice 3 imports voices from the seed app's directory")
        }
        return try CosyVoice3VoiceImport.conditioning(directory: directory)
    }
}
