import WarbleSpeech

/// Piper (VITS) voices: text → espeak-ng phonemes → one ONNX model, or the encoder/decoder split the
/// set-up makes for streaming inside an utterance.
public struct PiperFamily: ModelFamily {
    public init() {}

    public let name = "piper"
    public let abilities: Set<Ability> = [.synthesis]

    public func load(_ model: ModelFiles, configuration: PiperModelConfiguration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(renderer: try PiperVoice(directory: model.directory, manifest: model.manifest,
                                             phonemizer: try context.requirePhonemizer(for: name),
                                             sessionOptions: context.sessionOptions))
    }
}
