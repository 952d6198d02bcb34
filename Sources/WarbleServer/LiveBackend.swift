import WarbleSpeech

/// What `POST /v1/audio/live` captions with: a `LiveTranscriber` (Silero VAD in front of recognition model
/// `model`). `warble serve` hands the engine; the tests hand fakes.
public protocol LiveRecognitionBackend: Sendable {
    func liveTranscriber(model: String, options: LiveRecognitionOptions) async throws -> LiveTranscriber
}

/// No live recognition: the live routes answer 404.
public struct NoLiveRecognitionBackend: LiveRecognitionBackend {
    public init() {}
    public func liveTranscriber(model: String, options: LiveRecognitionOptions) async throws -> LiveTranscriber {
        throw APIError(.notFound, "this server offers no live captions", param: "model", code: "model_not_found")
    }
}
