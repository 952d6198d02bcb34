import Foundation
import WarbleSpeech

/// The Marian family: text translation, one language pair per model (the manifest's two languages,
/// source first): Bergamot models (convert.py) or Opus-MT ones (convert_opus.py, config kind "opus").
public struct MarianFamily: ModelFamily {
    public init() {}

    public let name = "marian"
    public let abilities: Set<Ability> = [.translation]

    public func load(_ model: ModelFiles, configuration: MarianConfiguration, context: FamilyContext) throws -> LoadedModel {
        let languages = model.manifest.languages
        if configuration.kind == "opus", languages.count > 2 {  // multi-target: the source, then its targets
            let pairs = languages.dropFirst().map { LanguagePair(source: languages[0], target: $0) }
            return LoadedModel(translator: try OpusTranslator(directory: model.directory, pairs: pairs, modelID: model.manifest.id,
                                                              configuration: configuration, sessionOptions: context.sessionOptions))
        }
        guard languages.count == 2 else {
            throw ModelError(.badModel, "\(model.manifest.id): a Marian manifest names two languages, source then target "
                + "(it has \(languages))")
        }
        let pair = LanguagePair(source: languages[0], target: languages[1])
        if configuration.kind == "opus" {
            return LoadedModel(translator: try OpusTranslator(directory: model.directory, pair: pair, modelID: model.manifest.id,
                                                              configuration: configuration, sessionOptions: context.sessionOptions))
        }
        let translator = try MarianTranslator(files: try MarianFiles.locate(in: model.directory),
                                              pair: LanguagePair(source: languages[0], target: languages[1]),
                                              modelID: model.manifest.id, configuration: configuration,
                                              sessionOptions: context.sessionOptions)
        return LoadedModel(translator: translator)
    }
}
