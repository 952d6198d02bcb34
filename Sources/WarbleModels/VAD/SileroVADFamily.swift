import WarbleSpeech

/// Silero VAD: the probability of speech in each 512-sample window of 16 kHz audio.
public struct SileroVADFamily: ModelFamily {
    public init() {}

    public let name = "silero-vad"
    public let abilities: Set<Ability> = [.voiceActivity]

    /// Silero's manifest has no configuration.
    public struct Configuration: Sendable, Decodable {}

    public func load(_ model: ModelFiles, configuration: Configuration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(voiceActivityDetector: try SileroVAD(directory: model.directory))
    }
}
