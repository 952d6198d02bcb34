import WarbleAudio
import WarbleModels

/// What the transcription routes need: the installed speech recognition models and a transcript
/// stream. `WhisperBackend` is the real one; the router tests use a small synthetic backend.
public protocol TranscriptionBackend: Sendable {
    /// Every installed recognition model.
    func recognitionModels() async -> [RecognitionModelDescription]
    /// Recognises `audio` (any rate and channel count) with the model `model` (an id from
    /// `recognitionModels`), streaming segments; cancelling the consuming task stops the work.
    func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error>
}

/// An installed speech recognition model, as the API offers it.
public struct RecognitionModelDescription: Sendable, Hashable {
    public var id: String
    /// The language codes it accepts (`["en"]` for English-only models).
    public var languages: [String]
    /// Whether it can translate into English (Whisper's multilingual models).
    public var canTranslate: Bool

    public init(id: String, languages: [String], canTranslate: Bool) {
        self.id = id
        self.languages = languages
        self.canTranslate = canTranslate
    }
}

/// No recognition models: the server answers the transcription routes with 404 (no model installed).
public struct NoTranscriptionBackend: TranscriptionBackend {
    public init() {}
    public func recognitionModels() async -> [RecognitionModelDescription] { [] }
    public func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        AsyncThrowingStream { $0.finish(throwing: ModelError(.badModel, "no speech recognition model is installed")) }
    }
}
