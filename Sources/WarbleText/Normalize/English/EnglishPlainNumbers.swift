/// Ordinals (21st), fractions (3/4, 1 1/2), and plain numbers: years, decimals, negatives, cardinals.
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

    static func fraction(_ numerator: Int, _ denominator: Int) -> String? {
        guard denominator >= 2, numerator >= 0 else { return nil }
        let plural = numerator != 1
        let name: String
        switch denominator {
        case 2: name = plural ? "halves" : "half"
        case 4: name = plural ? "quarters" : "quarter"
        default: name = EnglishNumbers.ordinal(String(denominator)) + (plural ? "s" : "")
        }
        return EnglishNumbers.cardinal(numerator) + " " + name
    }

    /// True when the character before `index` makes a "-" a hyphen rather than a minus sign.
    static func hyphenBefore(_ text: String, _ index: String.Index) -> Bool {
        guard index > text.startIndex else { return false }
        let previous = text[text.index(before: index)]
        return previous.isLetter || previous.isNumber
    }

    static let rules: [RewriteRule] = [
        // 1st, 22nd, 103rd, 4th
        RewriteRule(#"\b([0-9]+)(st|nd|rd|th)\b"#) { m, _ in m[group: 1].map(EnglishNumbers.ordinal) },
        // 1 1/2, 3/4
        RewriteRule(#"\b(?:([0-9]+) )?([0-9]{1,3})/([0-9]{1,3})\b"#) { m, _ in
            guard let numerator = Int(m[group: 2] ?? ""), let denominator = Int(m[group: 3] ?? ""),
                let words = fraction(numerator, denominator)
            else { return nil }
            guard let whole = m[group: 1] else { return words }
            let joined = numerator == 1 && (denominator == 2 || denominator == 4) ? "a " + words.dropFirst(4) : words
            return EnglishNumbers.cardinal(whole) + " and " + joined
        },
        // -12, 3.14, 1,234,567, 1999 (as a year)
        RewriteRule(#"([-−])?\b([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?\b"#) { m, text in
            let negative = m[group: 1] != nil && !hyphenBefore(text, m.range.lowerBound)
            let hyphen = m[group: 1] != nil && !negative ? "-" : ""
            let whole = (m[group: 2] ?? "").replacingOccurrences(of: ",", with: "")
            if let fraction = m[group: 3] {
                return hyphen + (negative ? "minus " : "") + EnglishNumbers.decimal(whole, fraction)
            }
            if !negative, m[group: 2]?.contains(",") == false, whole.count == 4, let n = Int(whole), (1100...2099).contains(n) {
                return hyphen + EnglishNumbers.year(n)
            }
            return hyphen + (negative ? "minus " : "") + EnglishNumbers.cardinal(whole)
        },
    ]
}
