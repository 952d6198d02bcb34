import Foundation
import WarbleModels
import WarbleSpeech

extension Engine {
    /// The installed translation models, as the language pairs their manifests name (source, target).
    /// A multi-target model (more than two languages: the source, then its targets) gives one pair a target.
    public func translationPairs() -> [(id: String, pair: LanguagePair)] {
        models(offering: .translation).flatMap { model -> [(id: String, pair: LanguagePair)] in
            let languages = model.manifest.languages
            guard languages.count >= 2 else { return [] }
            return languages.dropFirst().map { (model.manifest.id, LanguagePair(source: languages[0], target: $0)) }
        }
    }

    /// How `pair` is translated with the installed models: the first (by id) that translates it
    /// directly (language codes compared by their primary subtag: "pt" finds a "pt-BR" model), else
    /// two through English (source → en, en → target); nil when neither is installed.
    public func translationRoute(for pair: LanguagePair) -> [(id: String, pair: LanguagePair)]? {
        let installed = translationPairs()
        func find(_ source: String, _ target: String) -> (id: String, pair: LanguagePair)? {
            installed.first { LanguageCode.same($0.pair.source, source) && LanguageCode.same($0.pair.target, target) }
        }
        if let direct = find(pair.source, pair.target) { return [direct] }
        let pivot = "en"
        guard !LanguageCode.same(pair.source, pivot), !LanguageCode.same(pair.target, pivot),
              let first = find(pair.source, pivot), let second = find(pivot, pair.target) else { return nil }
        return [first, second]
    }

    /// The translator for `pair` (`translationRoute`): one model's, or two chained through English
    /// (id "FIRST+SECOND"), with the pair it is asked for.
    public func translator(for pair: LanguagePair) async throws -> (id: String, translator: any TextTranslator, pair: LanguagePair) {
        guard let route = translationRoute(for: pair) else {
            let installed = translationPairs().map { "\($0.id) (\($0.pair))" }
            throw ModelError(.badModel, "no installed model translates \(pair), directly or through English (installed translation models: "
                + (installed.isEmpty ? "none" : installed.joined(separator: ", ")) + ")")
        }
        if route.count == 1 { return (route[0].id, try await translator(route[0].id), route[0].pair) }  // a multi-target model's pair
        var stages: [PivotTranslator.Stage] = []
        for step in route { stages.append(PivotTranslator.Stage(translator: try await translator(step.id), pair: step.pair)) }
        return (route.map(\.id).joined(separator: "+"), PivotTranslator(stages: stages, pair: pair), pair)
    }
}

/// Translation through a pivot language: each stage's output is the next one's input, sentence by
/// sentence of the source when the first stage translates in sentences.
public struct PivotTranslator: TextTranslator {
    public struct Stage: Sendable {
        public var translator: any TextTranslator
        public var pair: LanguagePair
    }

    public let stages: [Stage]
    public let pair: LanguagePair
    public var languagePairs: [LanguagePair] { [pair] }
    public var searchesBeams: Bool { stages.allSatisfy(\.translator.searchesBeams) }

    public func translate(_ text: String, pair: LanguagePair) async throws -> String {
        try await translate(text, pair: pair, beamSize: nil)
    }

    /// The first stage's sentences, joined as the last stage joins its own.
    public func pieces(ofLine line: String) -> (pieces: [String], separator: String)? {
        guard let first = stages.first?.translator.pieces(ofLine: line), let last = stages.last?.translator.pieces(ofLine: "x") else {
            return nil
        }
        return (first.pieces, last.separator)
    }

    public func translate(_ text: String, pair: LanguagePair, beamSize: Int?) async throws -> String {
        guard LanguageCode.same(pair.source, self.pair.source), LanguageCode.same(pair.target, self.pair.target) else {
            throw ModelError(.badInput, "this route translates \(self.pair), not \(pair)")
        }
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // Sentence by sentence through every stage (as `pieces(ofLine:)` says), so that the pivot's
            // text is never split again differently.
            guard let (pieces, separator) = pieces(ofLine: line), pieces.count > 1 else {
                lines.append(try await chain(line, beamSize: beamSize))
                continue
            }
            var translated: [String] = []
            for piece in pieces { translated.append(try await chain(piece, beamSize: beamSize)) }
            lines.append(translated.filter { !$0.isEmpty }.joined(separator: separator))
        }
        return lines.joined(separator: "\n")
    }

    private func chain(_ text: String, beamSize: Int?) async throws -> String {
        var text = text
        for stage in stages where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            text = beamSize == nil ? try await stage.translator.translate(text, pair: stage.pair)
                : try await stage.translator.translate(text, pair: stage.pair, beamSize: beamSize)
        }
        return text
    }
}
