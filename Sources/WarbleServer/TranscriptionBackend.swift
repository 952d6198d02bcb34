import WarbleAudio
import WarbleSpeech

/// No recognition models: the server answers the transcription routes with 404 (no model installed).
public struct NoTranscriptionBackend: TranscriptionBackend {
    public init() {}
    public func recognitionModels() async -> [RecognitionModelDescription] { [] }
    public func transcribe(_ audio: AudioBuffer, model: String, options: TranscriptionOptions)
        -> AsyncThrowingStream<TranscriptSegment, any Error> {
        AsyncThrowingStream { $0.finish(throwing: ModelError(.badModel, "no speech recognition model is installed")) }
    }
}
