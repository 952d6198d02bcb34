import WarbleSpeech

/// SenseVoice Small as sherpa-onnx exports it (one CTC graph that also tells the language, the emotion and
/// the audio event): speech recognition in Chinese, Cantonese, English, Japanese and Korean.
public struct SenseVoiceFamily: ModelFamily {
    public init() {}

    public let name = "sensevoice"
    public let abilities: Set<Ability> = [.recognition]

    public func load(_ model: ModelFiles, configuration: SenseVoiceConfiguration, context: FamilyContext) throws -> LoadedModel {
        let sensevoice = try SenseVoiceModel(directory: model.directory, configuration: configuration,
                                             options: context.sessionOptions, id: model.manifest.id)
        return LoadedModel(recognizer: SenseVoiceRecognizer(model: sensevoice))
    }
}
