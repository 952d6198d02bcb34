/// Turns written forms (numbers, dates, currency, abbreviations…) into the words a voice should say.
/// One conformer per language; `NormalizerRegistry` picks it by language code.
public protocol TextNormalizing: Sendable {
    /// Rewrites everything the normalizer knows in running text; other text is unchanged.
    func normalize(_ text: String) -> String
    /// Reads `text` the way SSML `<say-as>` asks.
    func expand(_ text: String, as sayAs: SayAs) -> String
}

/// Normalizers by language. English is built in; add a language by conforming to `TextNormalizing` and
/// listing it in `builtIn` (English and Mandarin numbers so far).
public struct NormalizerRegistry: Sendable {
    private var byLanguage: [String: any TextNormalizing]

    public static let builtIn = NormalizerRegistry([
        "en": EnglishNormalizer(), "zh": ChineseNormalizer(), "cmn": ChineseNormalizer(),
    ])

    public init(_ byLanguage: [String: any TextNormalizing]) { self.byLanguage = byLanguage }

    public mutating func register(_ normalizer: any TextNormalizing, for language: String) {
        byLanguage[language.lowercased()] = normalizer
    }

    /// The normalizer for a BCP 47 code ("en-US" finds "en"), or nil when none is registered.
    public func normalizer(for language: String) -> (any TextNormalizing)? {
        let code = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = byLanguage[code] { return exact }
        return code.split(separator: "-").first.flatMap { byLanguage[String($0)] }
    }

    /// Normalizes the text segments of SSML output (honouring `say-as`), leaving the rest as it is.
    public func normalize(_ segments: [SpeechSegment], defaultLanguage: String) -> [SpeechSegment] {
        segments.map { segment in
            guard let text = segment.text, let normalizer = normalizer(for: segment.language ?? defaultLanguage) else {
                return segment
            }
            var out = segment
            out.content = .text(segment.sayAs.map { normalizer.expand(text, as: $0) } ?? normalizer.normalize(text))
            return out
        }
    }
}
