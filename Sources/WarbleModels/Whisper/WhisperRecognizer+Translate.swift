import Foundation
import WarbleAudio

extension WhisperRecognizer {
    /// Speech in any language Whisper knows → English text (Whisper's translate task), the first step
    /// of the speech → text → speech translation flow. `language`: the spoken language, or nil to detect it.
    public func translateToEnglish(_ audio: AudioBuffer, language: String? = nil, beamSize: Int = 5) async throws -> String {
        guard model.configuration.multilingual else {
            throw ModelError(.unknownVoice, "\(model.id) is English-only and cannot translate; "
                + "use a multilingual model (--model whisper-base)")
        }
        var options = TranscriptionOptions(language: language, task: .translate, beamSize: beamSize)
        options.conditionOnPreviousText = true
        let segments = try await transcribeAll(audio, options: options)
        return segments.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
