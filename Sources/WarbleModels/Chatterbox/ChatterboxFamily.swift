import Foundation
import WarbleSpeech

/// The Chatterbox Turbo family: speech, and cloning from a clip.
public struct ChatterboxFamily: ModelFamily {
    public init() {}

    public let name = "chatterbox"
    public let abilities: Set<Ability> = [.synthesis, .voiceEncoding]

    public func load(_ model: ModelFiles, configuration: ChatterboxConfiguration, context: FamilyContext) throws -> LoadedModel {
        let renderer = try ChatterboxModel(directory: model.directory, modelID: model.manifest.id, configuration: configuration,
                                           sessionOptions: context.sessionOptions)
        return LoadedModel(renderer: renderer, voiceEncoder: ChatterboxVoiceEncoder(modelID: model.manifest.id, codec: renderer.codec))
    }
}
