import Foundation
import WarbleSpeech

/// NeuTTS voices from their reference's NeuCodec codes (`NeuTTSReferenceCodes`) and what the reference says:
/// `warble voice add --codes`.
extension NeuTTSFamily: PreparedVoiceImporting {
    public var preparedVoiceKind: PreparedVoice.Kind { .referenceCodes }
    public var displayName: String { "NeuTTS" }
    public var preparedVoiceModel: String { "neutts-nano" }

    public func conditioning(for voice: PreparedVoice) throws -> VoiceConditioning {
        guard case .referenceCodes(let data, let name, let transcript) = voice else {
            throw ModelError(.badInput, "NeuTTS takes voices as reference codes")
        }
        return try NeuTTSVoice(codes: try NeuTTSReferenceCodes.read(data, name: name), transcript: transcript).conditioning
    }
}
