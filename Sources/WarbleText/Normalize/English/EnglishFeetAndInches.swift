/// Feet and inches: 5'9", 5′ 9″, 6', 12", "5 in." and "a 12-in. pizza" (in. after a number is an inch;
/// anywhere else it is the word "in").
enum EnglishFeetAndInches {
    static func amount(_ whole: String, _ fraction: String?, one: String, many: String) -> String {
        if let fraction { return EnglishNumbers.decimal(whole, fraction) + " " + many }
        return EnglishNumbers.cardinal(whole) + " " + (whole == "1" ? one : many)
    }

    /// One measure; after "a" or "an" it describes a noun: "a six-foot fence", "a twelve-inch ruler".
    static func single(_ whole: String, _ fraction: String?, one: String, many: String, _ text: String, _ range: Range<String.Index>) -> String {
        let before = EnglishContext.previousWord(text, before: range.lowerBound).lowercased()
        guard before == "a" || before == "an" else { return amount(whole, fraction, one: one, many: many) }
        return (fraction.map { EnglishNumbers.decimal(whole, $0) } ?? EnglishNumbers.cardinal(whole)) + "-" + one
    }

    /// True when the quote at `index` closes a quotation opened on the same line (`He said "I have 3"`):
    /// an odd number of the same quote mark stands before it, within a bounded window.
    static func closesQuotation(_ text: String, at index: String.Index, mark: Character) -> Bool {
        var count = 0
        var i = index
        var budget = 200
        while i > text.startIndex, budget > 0 {
            i = text.index(before: i)
            budget -= 1
            if text[i] == "\n" { break }
            if text[i] == mark, !isInsideWord(text, i) { count += 1 }
        }
        return count % 2 == 1
    }

    /// An apostrophe between two letters ("don't") is not a quotation mark.
    static func isInsideWord(_ text: String, _ i: String.Index) -> Bool {
        guard i > text.startIndex, text.index(after: i) < text.endIndex else { return false }
        return text[text.index(before: i)].isLetter && text[text.index(after: i)].isLetter
    }

    static let rules: [RewriteRule] = [
        // 5'9", 5′ 9″, 6'2.5"
        RewriteRule(#"\b([0-9]{1,2})['′] ?([0-9]{1,2})(?:\.([0-9]+))? ?(?:"|″|'')"#) { m, _ in
            guard let feet = m[group: 1], let inches = m[group: 2] else { return nil }
            return amount(feet, nil, one: "foot", many: "feet") + " " + amount(inches, m[group: 3], one: "inch", many: "inches")
        },
        // 6', 6′ tall, a 6' fence (not a closing single quote)
        RewriteRule(#"\b([0-9]{1,3})(?:\.([0-9]+))?(['′])(?![A-Za-z0-9])"#) { m, text in
            guard let feet = m[group: 1] else { return nil }
            if m[group: 3] == "'", closesQuotation(text, at: text.index(before: m.range.upperBound), mark: "'") { return nil }
            return single(feet, m[group: 2], one: "foot", many: "feet", text, m.range)
        },
        // 12", 3.5″, a 12" ruler (not a closing double quote)
        RewriteRule(#"\b([0-9]{1,3})(?:\.([0-9]+))?("|″)(?![A-Za-z0-9])"#) { m, text in
            guard let inches = m[group: 1] else { return nil }
            if m[group: 3] == "\"", closesQuotation(text, at: text.index(before: m.range.upperBound), mark: "\"") { return nil }
            return single(inches, m[group: 2], one: "inch", many: "inches", text, m.range)
        },
        // 5 in., 2.5 in. wide; a 12-in. pizza (an adjective: "twelve-inch")
        RewriteRule(#"\b([0-9]+)(?:\.([0-9]+))?( ?|-)in\.(?=\s|$|[,;:)])"#) { m, _ in
            guard let whole = m[group: 1] else { return nil }
            if m[group: 3] == "-" { return (m[group: 2].map { EnglishNumbers.decimal(whole, $0) } ?? EnglishNumbers.cardinal(whole)) + "-inch" }
            return amount(whole, m[group: 2], one: "inch", many: "inches")
        },
    ]
}
