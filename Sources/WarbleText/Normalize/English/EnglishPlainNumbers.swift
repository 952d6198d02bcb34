import Foundation

/// Ordinals (21st) and plain numbers: years, decimals, negatives, cardinals.
enum EnglishPlainNumbers {
    /// Words for a plain number string ("-3.5", "1,234", "42"), or nil when it is not one.
    static func number(_ s: String) -> String? {
        var body = Substring(s)
        var sign = ""
        if body.hasPrefix("-") || body.hasPrefix("−") {
            sign = "minus "
            body = body.dropFirst()
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty || parts.count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) })
        else { return nil }
        if parts.count == 2 { return sign + EnglishNumbers.decimal(parts[0], parts[1]) }
        return sign + EnglishNumbers.cardinal(parts[0])
    }

    /// True when the character before `index` makes a "-" a hyphen rather than a minus sign.
    static func hyphenBefore(_ text: String, _ index: String.Index) -> Bool {
        guard index > text.startIndex else { return false }
        let previous = text[text.index(before: index)]
        return previous.isLetter || previous.isNumber
    }

    /// Words before a number that make it a year ("in 1999", "since 1850", "the 2024 elections").
    static let yearCues: Set<String> = [
        "in", "since", "from", "until", "till", "circa", "c.", "year", "summer", "spring", "autumn", "fall", "winter",
        "early", "late", "mid", "before", "after", "during", "the", "this", "that", "last", "next",
    ]
    /// Plural nouns that do not end in "s" but count things ("1500 people").
    static let countNouns: Set<String> = ["people", "men", "women", "children", "feet", "teeth", "mice", "geese", "staff", "troops", "fish", "sheep"]

    /// A four-digit number from 1100 to 2099 is a year unless a plural noun counts what it numbers
    /// ("1500 soldiers", "2000 people") and no word before it asks for a year ("in 1990 students...").
    static func isYear(_ text: String, _ range: Range<String.Index>) -> Bool {
        if yearCues.contains(EnglishContext.previousWord(text, before: range.lowerBound).lowercased()) { return true }
        let next = EnglishContext.nextWord(text, after: range.upperBound)
        let word = next.lowercased().trimmingCharacters(in: .punctuationCharacters)
        if countNouns.contains(word) { return false }
        let plural = word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") && !word.hasSuffix("us") && !word.hasSuffix("is")
        return !(plural && next.first?.isLowercase == true)
    }

    static let rules: [RewriteRule] = [
        // 1st, 22nd, 103rd, 4th
        RewriteRule(#"\b([0-9]+)(st|nd|rd|th)\b"#) { m, _ in m[group: 1].map(EnglishNumbers.ordinal) },
        // -12, 3.14, 1,234,567, 1999 (as a year)
        RewriteRule(#"([-−])?\b([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?\b"#) { m, text in
            let negative = m[group: 1] != nil && !hyphenBefore(text, m.range.lowerBound)
            let hyphen = m[group: 1] != nil && !negative ? "-" : ""
            let whole = (m[group: 2] ?? "").replacingOccurrences(of: ",", with: "")
            if let fraction = m[group: 3] {
                return hyphen + (negative ? "minus " : "") + EnglishNumbers.decimal(whole, fraction)
            }
            if !negative, m[group: 2]?.contains(",") == false, whole.count == 4, let n = Int(whole), (1100...2099).contains(n),
                isYear(text, m.range)
            {
                return hyphen + EnglishNumbers.year(n)
            }
            return hyphen + (negative ? "minus " : "") + EnglishNumbers.cardinal(whole)
        },
    ]
}
