import WarbleSpeech

/// Whisper (speech recognition and translation into English), converted to ONNX at set-up
/// (tools/whisper/install.sh): an encoder, a KV-cache decoder, a tokenizer.
public struct WhisperFamily: ModelFamily {
    public init() {}

    public let name = "whisper"
    public let abilities: Set<Ability> = [.recognition]
    public let translatesSpeech = true

    public func load(_ model: ModelFiles, configuration: WhisperConfiguration, context: FamilyContext) throws -> LoadedModel {
        let whisper = try WhisperModel(directory: model.directory, id: model.manifest.id, configuration: configuration,
                                       threads: context.sessionOptions.intraOpThreads)
        return LoadedModel(recognizer: WhisperRecognizer(model: whisper))
    }
}
