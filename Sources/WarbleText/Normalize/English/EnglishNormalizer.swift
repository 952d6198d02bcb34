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

    /// The rules in order, by class; a class marked `needsDigit` only runs on text with an ASCII digit
    /// in it (a cheap scan that spares most prose the regex passes).
    static let stages: [(needsDigit: Bool, rules: [RewriteRule])] = [
        (false, EnglishSpelling.rules), (true, EnglishPhoneNumbers.rules), (true, EnglishRanges.rules),
        (true, EnglishDurations.rules), (true, EnglishDecades.rules), (true, EnglishDates.rules),
        (false, EnglishFractions.rules), (true, EnglishFeetAndInches.rules), (false, EnglishSquareAndCubic.rules),
        (true, EnglishMeasures.rules), (false, EnglishRomanNumerals.rules), (false, EnglishAbbreviations.rules),
        (true, EnglishPlainNumbers.rules),
    ]

    static func apply(_ text: String) -> String {
        stages.reduce(text) { text, stage in
            if stage.needsDigit, !text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { return text }
            return stage.rules.reduce(text) { $1.apply($0) }
        }
    }

    /// The longest run without whitespace that the rules see.
    static let longRun = 200

    public func normalize(_ text: String) -> String {
        EnglishLongRuns.pieces(of: text, longerThan: Self.longRun).map { piece in
            switch piece {
            case .text(let text): return Self.apply(String(text))
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
