import WarbleEngine
import WarbleModels

/// What the server needs from the engine: its voices and a synthesis stream. `Engine` is the real
/// one; the router tests use a small synthetic backend.
public protocol SpeechBackend: Sendable {
    /// Every installed voice, the default first-class in `defaultVoiceID`.
    func installedVoices() async -> [VoiceDescription]
    /// The id of the voice a request without one gets.
    func defaultVoiceID() async -> String?
    /// The voice `id` (the default for nil); throws `ModelError(.unknownVoice, …)` when unknown.
    func voice(_ id: String?) async throws -> VoiceDescription
    /// Speaks `request`, streaming chunks; cancelling the consuming task stops the work.
    func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>
}

extension Engine: SpeechBackend {
    public func installedVoices() async -> [VoiceDescription] { voices }
    public func defaultVoiceID() async -> String? { defaultVoice?.id }
}
