import WarbleSpeech

/// CosyVoice 3 (Fun-CosyVoice3-0.5B, community ONNX split): zero-shot cloning from a clip. Text →
/// speech tokens (Qwen2 LLM) → mel (flow matching) → audio (HiFT); voices are `.speakerPrompt`
/// conditionings.
public struct CosyVoice3Family: ModelFamily {
    public init() {}

    public let name = "cosyvoice3"
    /// HOOK: add `.voiceEncoding` (and set `LoadedModel.voiceEncoder` below) when the family's voice
    /// encoder (CosyVoice3VoiceEncoder.swift: campplus, speech tokenizer, prompt mel) is in.
    public let abilities: Set<Ability> = [.synthesis]

    public func load(_ model: ModelFiles, configuration: CosyVoice3Configuration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(renderer: try CosyVoice3Model(directory: model.directory, modelID: model.manifest.id, configuration: configuration,
                                                  languages: model.manifest.languages, sessionOptions: context.sessionOptions))
    }
}
