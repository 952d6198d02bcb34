/// Decades and plural numbers: "the 1960s", "the '60s", "in her 30s", "1800s", "100s of people", "roll two 6s".
enum EnglishDecades {
    /// "sixty" → "sixties", "hundred" → "hundreds", "six" → "sixes".
    static func pluralize(_ words: String) -> String {
        if words.hasSuffix("y") { return words.dropLast() + "ies" }
        if words.hasSuffix("x") { return words + "es" }
        return words + "s"
    }

    /// Words for a decade or a plural number written with an "s": nil when `digits` is not one.
    static func plural(_ digits: String, abbreviated: Bool) -> String? {
        guard let n = Int(digits), digits.count <= 4 else { return nil }
        if abbreviated {  // '60s, ’90s, '00s
            guard digits.count == 2, n % 10 == 0 else { return nil }
            return n == 0 ? "two thousands" : pluralize(EnglishNumbers.tens[n / 10].isEmpty ? "ten" : EnglishNumbers.tens[n / 10])
        }
        switch digits.count {
        case 1: return pluralize(EnglishNumbers.ones[n])  // roll two 6s
        case 2 where n % 10 == 0: return pluralize(n == 10 ? "ten" : EnglishNumbers.tens[n / 10])  // in her 30s
        case 3 where n == 100: return "hundreds"
        case 4 where n == 1000: return "thousands"
        case 4 where n % 10 == 0 && (1000...2090).contains(n): return pluralize(EnglishNumbers.year(n))  // the 1960s
        default: return nil  // 45s, 1965s: seconds or a plain plural, read by the unit rules
        }
    }

    /// Words right before "4s" or "20s" that make it seconds rather than fours or the twenties
    /// ("in 20s" against "in her 20s").
    static let durationCues: Set<String> = ["in", "within", "every", "after", "under", "over", "than", "takes", "took", "for", "about"]

    static let rules: [RewriteRule] = [
        // the '60s, the ’90s, the '60's
        RewriteRule(#"['’‘]([0-9]{2})['’]?s\b"#) { m, _ in m[group: 1].flatMap { plural($0, abbreviated: true) } },
        // the 1960s, the 1960's, in her 30s, 1800s, 100s of people
        RewriteRule(#"\b([0-9]{1,4})(['’]?)s\b"#) { m, text in
            guard let digits = m[group: 1] else { return nil }
            // "in 4s", "every 5s": a duration, read by the unit rules as seconds
            let before = EnglishContext.previousWord(text, before: m.range.lowerBound).lowercased()
            if digits.count <= 2, m[group: 2] == "", durationCues.contains(before) { return nil }
            return plural(digits, abbreviated: false)
        },
    ]
}
