import WarbleSpeech

extension Engine {
    /// Live recognition with Whisper model `id` and the installed Silero VAD: hand its `events(from:)`
    /// the captured 16 kHz mono chunks as they arrive.
    public func liveTranscriber(model id: String, options: LiveRecognitionOptions = .init()) async throws -> LiveTranscriber {
        let recognizer = try await recognizer(for: id)
        let detector = try await voiceActivityDetector()
        return LiveTranscriber(recognizer: recognizer, detector: detector, options: options)
    }
}
