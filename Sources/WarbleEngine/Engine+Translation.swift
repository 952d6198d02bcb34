import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// The installed translation models, as the language pairs their manifests name (source, target).
    public func translationPairs() -> [(id: String, pair: LanguagePair)] {
        models(offering: .translation).compactMap { model in
            let languages = model.manifest.languages
            guard languages.count == 2 else { return nil }
            return (model.manifest.id, LanguagePair(source: languages[0], target: languages[1]))
        }
    }

    /// The translator of the first installed model (by id) that translates `pair` (language codes
    /// compared by their primary subtag: "pt" finds a "pt-BR" model), and its id.
    public func translator(for pair: LanguagePair) async throws -> (id: String, translator: any TextTranslator, pair: LanguagePair) {
        guard let (id, modelPair) = translationPairs().first(where: {
            LanguageCode.same($0.pair.source, pair.source) && LanguageCode.same($0.pair.target, pair.target)
        }) else {
            let installed = translationPairs().map { "\($0.id) (\($0.pair))" }
            throw ModelError(.badModel, "no installed model translates \(pair) (installed translation models: "
                + (installed.isEmpty ? "none" : installed.joined(separator: ", ")) + ")")
        }
        return (id, try await translator(id), modelPair)
    }
}
