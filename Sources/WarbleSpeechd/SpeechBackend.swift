import WarbleSpeech

/// What the module speaks with: the voices and a synthesizer. `Engine` in sd_warble; a fake in tests.
public struct SpeechBackend: Sendable {
    public var voices: [VoiceDescription]
    public var defaultVoice: VoiceDescription?
    public var synthesize: @Sendable (SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>

    public init(voices: [VoiceDescription], defaultVoice: VoiceDescription?,
                synthesize: @escaping @Sendable (SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>) {
        self.voices = voices
        self.defaultVoice = defaultVoice
        self.synthesize = synthesize
    }
}
