import Foundation
import WarbleAudio
import ONNXRuntime
import WarbleSpeech

/// CosyVoice 3 (Fun-CosyVoice3-0.5B, community ONNX split): zero-shot cloning from a clip. Text →
/// speech tokens (Qwen2 LLM) → mel (flow matching) → audio (HiFT); voices are `.speakerPrompt`
/// conditionings made by `CosyVoice3VoiceEncoder` from a clip and its transcript.
public struct CosyVoice3Family: ModelFamily {
    public init() {}

    public let name = "cosyvoice3"
    public let abilities: Set<Ability> = [.synthesis, .voiceEncoding]

    public func load(_ model: ModelFiles, configuration: CosyVoice3Configuration, context: FamilyContext) throws -> LoadedModel {
        LoadedModel(renderer: try CosyVoice3Model(directory: model.directory, modelID: model.manifest.id, configuration: configuration,
                                                  languages: model.manifest.languages, sessionOptions: context.sessionOptions),
                    voiceEncoder: CosyVoice3DeferredVoiceEncoder(modelID: model.manifest.id, directory: model.directory,
                                                                 options: context.sessionOptions))
    }
}

/// The voice encoder, opened only when a voice is cloned: speaking never pays for CAM++ and the
/// speech tokenizer (the real `speech_tokenizer_v3.onnx` is close to a gigabyte).
struct CosyVoice3DeferredVoiceEncoder: VoiceEncoder {
    let modelID: String
    let directory: URL
    let options: SessionOptions

    var clipSeconds: ClosedRange<Double> { CosyVoice3VoiceEncoder.clipLimits }
    var needsTranscript: Bool { true }

    func encode(_ clip: AudioBuffer, transcript: String?) async throws -> VoiceConditioning {
        try await CosyVoice3VoiceEncoder(modelID: modelID, directory: directory, options: options).encode(clip, transcript: transcript)
    }
}
