import Foundation
import WarbleSpeech

/// The NeuTTS family: speech from voices given as reference codes. It needs NeuCodec's decoder
/// installed beside it (`warble models pull neucodec`) and a phonemizer (espeak-ng). With NeuCodec's
/// encoder installed too (tools/neutts/export_encoder.py), it clones voices from plain clips.
public struct NeuTTSFamily: ModelFamily {
    public init() {}

    public let name = "neutts"
    public let abilities: Set<Ability> = [.synthesis, .voiceEncoding]

    public func load(_ model: ModelFiles, configuration: NeuTTSConfiguration, context: FamilyContext) throws -> LoadedModel {
        guard let codec = NeuCodecModels.decoder(in: context.installed) else {
            throw ModelError(.badModel, "\(model.manifest.id) speaks through NeuCodec's decoder, which is not installed: "
                + "run `warble models pull neucodec`")
        }
        let codecFile = try NeuCodecFiles.graph(in: codec)
        let renderer = try NeuTTSModel(files: try NeuTTSFiles.locate(in: model.directory, backbone: configuration.files["backbone"]),
                                       codec: codecFile,
                                       phonemizer: try context.requirePhonemizer(for: "NeuTTS"), modelID: model.manifest.id,
                                       languages: model.manifest.languages, configuration: configuration,
                                       sessionOptions: context.sessionOptions)
        // Without the encoder there is no voice encoder: cloning goes on to another model, and voices come
        // from their codes (`warble voice add --codes`).
        let voiceEncoder = try NeuCodecModels.encoder(in: context.installed).map {
            NeuTTSVoiceEncoder(modelID: model.manifest.id,
                               encoder: try NeuCodecEncoder(url: try NeuCodecFiles.graph(in: $0), options: context.sessionOptions))
        }
        return LoadedModel(renderer: renderer, voiceEncoder: voiceEncoder)
    }
}
