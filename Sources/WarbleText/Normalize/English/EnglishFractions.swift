/// Fractions: Unicode vulgar fractions ("¼", "2½", "⅔ of"), and a/b read by its context: "2/5 of the
/// votes" (a fraction), "3/4 in." (three quarters of an inch), "rated 8/10" (out of), "on 3/14" (a date),
/// "24/7", "9/11" and "50/50" (said as written).
enum EnglishFractions {
    static let vulgar: [Character: (Int, Int)] = [
        "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5), "⅘": (4, 5),
        "⅙": (1, 6), "⅚": (5, 6), "⅐": (1, 7), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8), "⅑": (1, 9), "⅒": (1, 10),
    ]

    /// Units a fraction may measure, with their plural: symbols from `EnglishMeasures.units` and these words.
    static let unitWords: [String: (String, String)] = [
        "in.": ("inch", "inches"), "\"": ("inch", "inches"), "″": ("inch", "inches"), "inch": ("inch", "inches"),
        "cup": ("cup", "cups"), "tsp": ("teaspoon", "teaspoons"), "teaspoon": ("teaspoon", "teaspoons"),
        "tbsp": ("tablespoon", "tablespoons"), "tablespoon": ("tablespoon", "tablespoons"), "mile": ("mile", "miles"),
        "pound": ("pound", "pounds"), "ounce": ("ounce", "ounces"), "hour": ("hour", "hours"), "gallon": ("gallon", "gallons"),
        "pint": ("pint", "pints"), "acre": ("acre", "acres"), "yard": ("yard", "yards"), "foot": ("foot", "feet"),
    ]
    static let unitAlternatives = (["in\\.", "\"", "″", "inch", "cup", "tsp", "teaspoon", "tbsp", "tablespoon", "mile", "pound",
        "ounce", "hour", "gallon", "pint", "acre", "yard", "foot"] + [EnglishMeasures.unitPattern]).joined(separator: "|")

    static func unitNames(_ symbol: String) -> (String, String)? {
        if let names = unitWords[symbol] { return names }
        if EnglishMeasures.attachedOnly.contains(symbol) { return nil }
        return EnglishMeasures.units[symbol]
    }

    /// "one half", "three quarters", "two fifths".
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

    /// A fraction with an optional whole part and unit: "two and a half", "three quarters of an inch",
    /// "one and a half cups".
    /// `measuresSomething`: "of" follows the unit, and one part of it is read as an adjective ("¼ cup of
    /// sugar" is "one quarter cup of sugar", not "one quarter of a cup of sugar"; "¾ cup of milk" keeps
    /// "three quarters of a cup of milk").
    static func say(whole: String?, _ numerator: Int, _ denominator: Int, unit: (String, String)?, measuresSomething: Bool = false) -> String? {
        guard let words = fraction(numerator, denominator) else { return nil }
        guard let whole else {
            guard let unit else { return words }
            if numerator < denominator, !(measuresSomething && numerator == 1) {
                let article = "aeio".contains(unit.0.first ?? "x") || unit.0.hasPrefix("hour") ? "an " : "a "
                return words + " of " + article + unit.0
            }
            return words + " " + (numerator == 1 ? unit.0 : unit.1)
        }
        let joined = numerator == 1 && (denominator == 2 || denominator == 4) ? "a " + words.dropFirst(4) : words
        return EnglishNumbers.cardinal(whole) + " and " + joined + (unit.map { " " + $0.1 } ?? "")
    }

    static func ofFollows(_ text: String, _ range: Range<String.Index>) -> Bool {
        EnglishContext.nextWord(text, after: range.upperBound) == "of"
    }

    /// Words that make a/b a score out of b.
    static let outOfCues: Set<String> = ["rated", "rates", "rating", "scored", "score", "scores", "got", "gave", "gives", "earned", "earns", "awarded", "rate"]
    /// Words that make a/b a date (month/day, as in the US).
    static let dateCues: Set<String> = ["on", "by", "until", "till", "since", "from", "before", "after", "due", "dated"]

    static let rules: [RewriteRule] = [
        // 2½ cups, ¼ mile, ⅔ of the way, 1⁄2 (with the fraction slash)
        RewriteRule(#"(?:\b([0-9]+) ?)?([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒])(?: ?("# + unitAlternatives + #")(?![A-Za-z0-9]))?"#) { m, text in
            guard let symbol = m[group: 2]?.first, let (numerator, denominator) = vulgar[symbol] else { return nil }
            return say(whole: m[group: 1], numerator, denominator, unit: m[group: 3].flatMap(unitNames), measuresSomething: ofFollows(text, m.range))
        },
        // 24/7, 9/11, 50/50: said as written
        RewriteRule(#"\b(24/7|9/11|50/50)(?![/0-9])"#) { m, _ in
            switch m[group: 1] {
            case "24/7": return "twenty-four seven"
            case "9/11": return "nine eleven"
            default: return "fifty-fifty"
            }
        },
        // 2/5 of the votes, 1 1/2 cups, 3/4 in., rated 8/10, on 3/14
        RewriteRule(#"\b(?:([0-9]+)[ -])?([0-9]{1,3})[/⁄]([0-9]{1,3})\b(?![/.,][0-9])(?: ?("# + unitAlternatives + #")(?![A-Za-z0-9]))?"#) { m, text in
            guard let numerator = Int(m[group: 2] ?? ""), let denominator = Int(m[group: 3] ?? "") else { return nil }
            let unit = m[group: 4].flatMap(unitNames)
            if m[group: 1] == nil, unit == nil {
                let before = EnglishContext.previousWord(text, before: m.range.lowerBound).lowercased()
                if outOfCues.contains(before), numerator <= denominator {
                    return EnglishNumbers.cardinal(numerator) + " out of " + EnglishNumbers.cardinal(denominator)
                }
                if dateCues.contains(before), let date = EnglishDates.say(month: numerator, day: denominator, year: nil) {
                    return date
                }
            }
            guard let words = say(whole: m[group: 1], numerator, denominator, unit: unit, measuresSomething: ofFollows(text, m.range))
            else { return nil }
            return words + (m[group: 4] != nil && unit == nil ? " " + (m[group: 4] ?? "") : "")
        },
    ]
}
