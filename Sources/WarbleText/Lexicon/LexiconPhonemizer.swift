/// A phonemizer that consults a pronunciation lexicon first: aliases are substituted before phonemizing,
/// lexicon phonemes are used as they are, and the rest goes to the wrapped phonemizer.
public struct LexiconPhonemizer: Phonemizer {
    public let lexicon: PronunciationLexicon
    public let base: any Phonemizer

    public init(lexicon: PronunciationLexicon, base: any Phonemizer) {
        self.lexicon = lexicon
        self.base = base
    }

    public func phonemize(_ text: String, language: String) throws -> String {
        try phonemize(text, language: language, convention: .warble)
    }

    /// The lexicon's phonemes stand as they are whatever the convention; the rest is laid out by `base`.
    public func phonemize(_ text: String, language: String, convention: PhonemeConvention) throws -> String {
        var parts: [String] = []
        var pending = ""
        func flush() throws {
            guard !pending.allSatisfy(\.isWhitespace) else {
                pending = ""
                return
            }
            parts.append(try base.phonemize(pending, language: language, convention: convention))
            pending = ""
        }
        for (range, pronunciation) in lexicon.matches(in: text) {
            switch pronunciation {
            case nil: pending += text[range]
            case .alias(let alias): pending += alias
            case .phonemes(let ipa):
                try flush()
                parts.append(ipa)
            }
        }
        try flush()
        return parts.joined(separator: " ")
    }
}
