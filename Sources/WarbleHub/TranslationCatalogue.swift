import Foundation
import WarbleSpeech

/// The translation models the catalogue can pull, as language pairs: the set-up's PyPI models and each
/// pair of a templated entry (Opus-MT's `opus-mt-{size}`), and what to pull for a pair that is not
/// installed.
public struct TranslationCatalogue: Sendable {
    /// A pullable model: its `warble models pull` reference and its pair.
    public struct Model: Sendable, Equatable {
        public var reference: String
        public var pair: LanguagePair
    }

    public let models: [Model]
    /// The Hub repository template and family of the catalogue's pairs by size (`{size}` is the pair), for hints.
    let pairRepository: (repo: String, family: String)?

    public init(_ catalogue: ModelCatalogue) {
        var models: [Model] = []
        var pairRepository: (repo: String, family: String)?
        for entry in catalogue.models {
            if pairRepository == nil, !entry.isPyPI, !entry.sizeLanguages.isEmpty { pairRepository = (entry.repo, entry.family) }
            if entry.isPyPI, entry.languages.count == 2, entry.sizes.isEmpty {
                models.append(Model(reference: "pypi:\(entry.id)", pair: LanguagePair(source: entry.languages[0], target: entry.languages[1])))
            }
            for size in entry.sizes {
                let languages = entry.sizeLanguages[size] ?? []
                guard languages.count == 2 else { continue }
                models.append(Model(reference: entry.id.replacingOccurrences(of: "{size}", with: size),
                                    pair: LanguagePair(source: languages[0], target: languages[1])))
            }
        }
        self.models = models
        self.pairRepository = pairRepository
    }

    public static func load() -> TranslationCatalogue? { (try? ModelCatalogue.load()).map(TranslationCatalogue.init) }

    /// The catalogue's models for `pair`, the set-up's first.
    public func models(for pair: LanguagePair) -> [Model] {
        models.filter { LanguageCode.same($0.pair.source, pair.source) && LanguageCode.same($0.pair.target, pair.target) }
    }

    /// What to pull so that `pair` can be translated, given the pairs `installed`: one model for the pair,
    /// else the one or two missing legs through English; nil when the catalogue has neither.
    public func pulls(for pair: LanguagePair, installed: [LanguagePair] = []) -> [String]? {
        if let direct = models(for: pair).first { return [direct.reference] }
        let pivot = "en"
        guard !LanguageCode.same(pair.source, pivot), !LanguageCode.same(pair.target, pivot) else { return nil }
        func leg(_ source: String, _ target: String) -> [String]?? {
            let wanted = LanguagePair(source: source, target: target)
            if installed.contains(where: { LanguageCode.same($0.source, source) && LanguageCode.same($0.target, target) }) { return .some([]) }
            return models(for: wanted).first.map { [$0.reference] }
        }
        guard let first = leg(pair.source, pivot) ?? nil, let second = leg(pivot, pair.target) ?? nil else { return nil }
        return first + second
    }

    /// The sentence an error about `pair` ends with: the pull command, or where to look.
    public func hint(for pair: LanguagePair, installed: [LanguagePair] = []) -> String {
        if let pulls = pulls(for: pair, installed: installed), !pulls.isEmpty {
            let through = models(for: pair).isEmpty ? " (through English)" : ""
            return "; install it with: warble models pull \(pulls.joined(separator: " "))\(through)"
        }
        let lists = "warble models available --task translation --from \(pair.source) lists what translates from \(pair.source)"
        guard let pairRepository else { return "; the catalogue has no model for \(pair), directly or through English (\(lists))" }
        let repo = pairRepository.repo.replacingOccurrences(of: "{size}", with: "\(LanguageCode.primary(pair.source))-\(LanguageCode.primary(pair.target))")
        return "; the catalogue has no model for \(pair), directly or through English (\(lists); hf:\(repo) --family "
            + "\(pairRepository.family) pulls a repository the catalogue does not list)"
    }
}
