import Foundation

/// English text normalization. Deterministic: the same input always gives the same output.
///
/// Rules run in a fixed order, most specific first, so that each written form is read once:
/// URLs and e-mail addresses, dates, times, currency, phone numbers, percentages, units, ordinals,
/// Roman numerals in context, abbreviations, fractions, then plain numbers (years, decimals, negatives).
public struct EnglishNormalizer: TextNormalizing {
    public init() {}

    static let rules: [RewriteRule] =
        EnglishSpelling.rules + EnglishDates.rules + EnglishMeasures.rules + EnglishAbbreviations.rules
        + EnglishPlainNumbers.rules

    public func normalize(_ text: String) -> String {
        var out = text
        for rule in Self.rules { out = rule.apply(out) }
        return out
    }

    public func expand(_ text: String, as sayAs: SayAs) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch sayAs.interpretation {
        case .cardinal:
            let digits = trimmed.replacingOccurrences(of: ",", with: "")
            return EnglishPlainNumbers.number(digits) ?? normalize(text)
        case .ordinal:
            let digits = trimmed.filter(\.isASCIIDigitCharacter)
            return digits.isEmpty ? normalize(text) : EnglishNumbers.ordinal(digits)
        case .characters, .spellOut:
            return EnglishSpelling.characters(trimmed)
        case .digits:
            return EnglishSpelling.characters(trimmed.filter { !$0.isWhitespace })
        case .date:
            return EnglishDates.date(trimmed, format: sayAs.format ?? "mdy") ?? normalize(text)
        case .time:
            return EnglishDates.rules.reduce(trimmed) { $1.apply($0) }
        case .telephone:
            return EnglishSpelling.telephone(trimmed)
        }
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
