import WarbleSpeech

/// What the module speaks with: the voices and a synthesizer. `Engine` in sd_warble; a fake in tests.
public struct SpeechBackend: Sendable {
    public var voices: [VoiceDescription]
    public var defaultVoice: VoiceDescription?
    public var synthesize: @Sendable (SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>
    /// The voices now (a voice cloned while the module runs appears without a restart); nil: `voices`
    /// never change.
    public var currentVoices: (@Sendable () async -> [VoiceDescription])?

    public init(voices: [VoiceDescription], defaultVoice: VoiceDescription?,
                currentVoices: (@Sendable () async -> [VoiceDescription])? = nil,
                synthesize: @escaping @Sendable (SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>) {
        self.voices = voices
        self.defaultVoice = defaultVoice
        self.currentVoices = currentVoices
        self.synthesize = synthesize
    }
}
