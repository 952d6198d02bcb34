import WarbleSpeech

/// Parakeet TDT as sherpa-onnx exports it (NVIDIA NeMo's FastConformer transducer with token durations: encoder,
/// prediction network, joiner): speech recognition with punctuation and casing in 25 European languages.
public struct ParakeetFamily: ModelFamily {
    public init() {}

    public let name = "parakeet"
    public let abilities: Set<Ability> = [.recognition]

    public func load(_ model: ModelFiles, configuration: ParakeetConfiguration, context: FamilyContext) throws -> LoadedModel {
        let parakeet = try ParakeetModel(directory: model.directory, configuration: configuration,
                                         options: context.sessionOptions, id: model.manifest.id)
        return LoadedModel(recognizer: ParakeetRecognizer(model: parakeet))
    }
}
