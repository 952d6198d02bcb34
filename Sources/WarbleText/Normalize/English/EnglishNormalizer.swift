import Foundation

/// English text normalization. Deterministic: the same input always gives the same output.
///
/// Rules run in a fixed order, most specific first, so that each written form is read once: URLs,
/// domains and e-mail addresses; telephone numbers; scores and ranges (the dash read "to"); compound
/// durations; decades; dates and times; fractions; feet and inches; square and cubic units; currency,
/// percentages and units; Roman numerals in context; abbreviations; then ordinals and plain numbers
/// (years, decimals, negatives).
///
/// Every rule is linear in its input: runs of more than `longRun` characters without a space (a
/// 100,000-digit number, a pasted hash) never reach the patterns; digits among them are read one by one.
public struct EnglishNormalizer: TextNormalizing {
    public init() {}

    static let rules: [RewriteRule] =
        EnglishSpelling.rules + EnglishPhoneNumbers.rules + EnglishRanges.rules + EnglishDurations.rules
        + EnglishDecades.rules + EnglishDates.rules + EnglishFractions.rules + EnglishFeetAndInches.rules + EnglishSquareAndCubic.rules
        + EnglishMeasures.rules + EnglishRomanNumerals.rules + EnglishAbbreviations.rules + EnglishPlainNumbers.rules

    /// The longest run without whitespace that the rules see.
    static let longRun = 200

    public func normalize(_ text: String) -> String {
        EnglishLongRuns.pieces(of: text, longerThan: Self.longRun).map { piece in
            switch piece {
            case .text(let text): return Self.rules.reduce(String(text)) { $1.apply($0) }
            case .longRun(let run): return EnglishLongRuns.read(run)
            }
        }.joined()
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
