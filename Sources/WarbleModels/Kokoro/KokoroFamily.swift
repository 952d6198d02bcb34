import WarbleSpeech

/// Kokoro v1.0: text → espeak-ng IPA → misaki symbols → one ONNX run with a voice's style vector.
/// Library voices hold a style table (`VoiceConditioning.styleTable`).
public struct KokoroFamily: ModelFamily {
    public init() {}

    public let name = "kokoro"
    public let abilities: Set<Ability> = [.synthesis]

    public func load(_ model: ModelFiles, configuration: KokoroConfiguration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(renderer: try KokoroModel(directory: model.directory, manifest: model.manifest, configuration: configuration,
                                              phonemizer: try context.requirePhonemizer(for: name),
                                              sessionOptions: context.sessionOptions))
    }
}
