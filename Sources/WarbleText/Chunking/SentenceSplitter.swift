/// Splits text into sentences: `. ! ? …` followed by space (Latin, Cyrillic, Greek… scripts) and
/// `。！？` (Chinese, Japanese) wherever they stand. Abbreviations (Dr., e.g., St.), initials (J. R.),
/// decimals (3.14) and lower-case continuations do not end a sentence.
public struct SentenceSplitter: Sendable {
    /// Lower-case abbreviations without their final dot ("dr", "e.g", "vs").
    public var abbreviations: Set<String>

    public static let englishAbbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "mt", "ft", "ave", "blvd", "rd", "co", "corp", "inc", "ltd",
        "vs", "etc", "e.g", "i.e", "cf", "al", "approx", "dept", "est", "fig", "gen", "gov", "no", "vol", "vols", "pp",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "a.m", "p.m", "u.s", "u.k",
        "capt", "col", "lt", "sgt", "rev", "hon", "messrs", "mme", "mlle", "nr", "tel", "ca", "min", "max",
    ]

    public init(abbreviations: Set<String> = SentenceSplitter.englishAbbreviations) {
        self.abbreviations = abbreviations
    }

    /// Abbreviations of other languages (lower case, without the final dot), added to the English ones
    /// for text in that language.
    public static let abbreviationsByLanguage: [String: Set<String>] = [
        "de": ["z.b", "bzw", "usw", "u.a", "d.h", "ca", "vgl", "str", "nr", "hr", "fr", "dr", "prof", "evtl", "ggf", "inkl", "mio", "mrd",
               "jh", "s", "u.s.w", "o.ä", "z.t"],
        "fr": ["m", "mm", "mme", "mlle", "dr", "etc", "p.ex", "cf", "env", "av", "bd", "n°", "st", "ste", "vol", "p", "c.-à-d"],
        "es": ["sr", "sra", "srta", "dr", "dra", "d", "dña", "ud", "uds", "etc", "p.ej", "pág", "núm", "av", "avda", "c", "aprox"],
        "pt": ["sr", "sra", "srta", "dr", "dra", "prof", "profa", "etc", "p.ex", "pág", "n.º", "av", "aprox", "v.exa"],
        "it": ["sig", "sig.ra", "dott", "prof", "ing", "avv", "ecc", "p.es", "pag", "n", "vol"],
        "nl": ["dhr", "mevr", "dr", "prof", "bijv", "enz", "o.a", "d.w.z", "nr", "blz", "ca"],
    ]

    /// A splitter for text in `language` (a code: "de", "pt-BR"): the English abbreviations and the
    /// language's. Chinese and Japanese full stops, Spanish ¿…? and ¡…!, Arabic and Devanagari marks
    /// end sentences whatever the language.
    public init(language: String) {
        let primary = String(language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
        self.init(abbreviations: Self.englishAbbreviations.union(Self.abbreviationsByLanguage[primary] ?? []))
    }

    /// Abbreviations that only stand before a number ("No. 5", "Fig. 3").
    static let numberAbbreviations: Set<String> = ["no", "vol", "vols", "pp", "fig", "nr", "tel"]

    static let wideEnds: Set<Character> = ["。", "！", "？", "｡", "．"]
    static let ends: Set<Character> = [".", "!", "?", "…", "‼", "⁇", "⁈", "⁉", "؟", "।", "۔"]
    static let closers: Set<Character> = ["\"", "'", "”", "’", "»", ")", "]", "}", "」", "』", "）", "】", "〉", "》", "›"]

    /// The sentences of `text`, trimmed of surrounding whitespace, as slices of it.
    public func split(_ text: String) -> [Substring] {
        var sentences: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let isWide = Self.wideEnds.contains(c)
            guard isWide || Self.ends.contains(c) else {
                i = text.index(after: i)
                continue
            }
            // Take the whole run of end marks and closing quotes or brackets.
            var end = text.index(after: i)
            while end < text.endIndex, Self.ends.contains(text[end]) || Self.wideEnds.contains(text[end]) || Self.closers.contains(text[end]) {
                end = text.index(after: end)
            }
            let followedBySpace = end == text.endIndex || text[end].isWhitespace
            let dotEndsRun = c == "." && text.index(after: i) == end
            if (isWide || followedBySpace) && !(dotEndsRun && isAbbreviation(text, dotAt: i, next: end)) {
                append(text[start..<end], to: &sentences)
                start = end
            }
            i = end
        }
        append(text[start...], to: &sentences)
        return sentences
    }

    private func append(_ piece: Substring, to sentences: inout [Substring]) {
        let trimmed = piece.drop(while: \.isWhitespace)
        var end = trimmed.endIndex
        while end > trimmed.startIndex, trimmed[trimmed.index(before: end)].isWhitespace {
            end = trimmed.index(before: end)
        }
        if trimmed.startIndex < end { sentences.append(trimmed[trimmed.startIndex..<end]) }
    }

    /// True when the dot at `dot` closes an abbreviation or an initial, or the next word starts in lower case.
    private func isAbbreviation(_ text: String, dotAt dot: String.Index, next: String.Index) -> Bool {
        var wordStart = dot
        while wordStart > text.startIndex {
            let previous = text.index(before: wordStart)
            let c = text[previous]
            if c.isWhitespace || c == "(" || c == "\"" || c == "“" { break }
            wordStart = previous
        }
        let word = text[wordStart..<dot].lowercased()
        let nextWord = text[next...].drop(while: \.isWhitespace)
        let nextIsLower = nextWord.first.map { $0.isLowercase } ?? false
        let nextIsDigit = nextWord.first.map { $0.isNumber } ?? false
        if nextIsLower { return true }
        if word.count == 1, word.first?.isLetter == true, !nextWord.isEmpty { return true }  // initials: J. R. R. Tolkien
        if Self.numberAbbreviations.contains(word) { return nextIsDigit }
        if abbreviations.contains(word) {
            // "etc." and "a.m." often end a sentence: split when a capitalised word follows.
            if ["etc", "a.m", "p.m", "al"].contains(word) { return nextWord.isEmpty ? false : !(nextWord.first?.isUppercase ?? false) }
            return !nextWord.isEmpty || nextIsDigit
        }
        return false
    }
}
