/// Scores ("won 4-1", "a 3-2 win") and ranges with a hyphen or an en dash ("pages 20–25", "1914-18",
/// "8:00–9:15 am", "March 3–5"): the dash is read "to", and the numbers are left to the later rules.
enum EnglishRanges {
    static let scoreWords =
        "won|win|wins|winning|lost|lose|loses|losing|beat|beats|beating|defeated|defeats|drew|draw|draws|tied|tie|ties|score|scored|scores|scoring|led|lead|leads|leading|trailed|trail|trails|trailing|edged|thrashed|routed|final"
    static let resultWords = "win|victory|defeat|loss|lead|draw|tie|win over|loss to"

    /// A score's side: "nothing" for zero, as American sports commentary says it.
    static func side(_ digits: String) -> String {
        digits.allSatisfy { $0 == "0" } ? "nothing" : EnglishNumbers.cardinal(digits)
    }

    /// True when a digit-dash-digit chain continues on either side (1-800-555-0199, 2025-03-14, 978-3-16):
    /// such chains are codes or dates, not ranges.
    static func isChain(_ text: String, _ range: Range<String.Index>) -> Bool {
        var before = range.lowerBound
        if before > text.startIndex {
            before = text.index(before: before)
            if "-–".contains(text[before]), before > text.startIndex, text[text.index(before: before)].isASCIIDigitCharacter {
                return true
            }
        }
        let after = range.upperBound
        guard after < text.endIndex, "-–".contains(text[after]) else { return false }
        let next = text.index(after: after)
        return next < text.endIndex && text[next].isASCIIDigitCharacter
    }

    /// "1939" "45" → "1945"; otherwise the second number as written.
    static func expandYear(_ first: String, _ second: String) -> String {
        guard first.count == 4, second.count == 2, let start = Int(first), (1100...2099).contains(start),
            let end = Int(first.prefix(2) + second), end > start
        else { return second }
        return String(end)
    }

    static let monthNames = Set(EnglishDates.monthPattern.split(separator: "|").flatMap { [String($0), $0 + "."] })

    static let rules: [RewriteRule] = [
        // won 4-1, beat Leeds 2–0, the final score was 3-2
        RewriteRule(#"(?i)\b("# + scoreWords + #")\b((?:[ ,]+[^\s0-9]+){0,4}?) +([0-9]{1,3}) ?[-–—] ?([0-9]{1,3})\b"#) { m, text in
            guard let word = m[group: 1], let a = m[group: 3], let b = m[group: 4], !isChain(text, m.range) else { return nil }
            return word + (m[group: 2] ?? "") + " " + side(a) + " to " + side(b)
        },
        // a 3-2 win, their 4–0 defeat
        RewriteRule(#"\b([0-9]{1,3}) ?[-–—] ?([0-9]{1,3}) ("# + resultWords + #")\b"#) { m, text in
            guard let a = m[group: 1], let b = m[group: 2], let word = m[group: 3], !isChain(text, m.range) else { return nil }
            return side(a) + " to " + side(b) + " " + word
        },
        // 8:00–9:15 am, 9am-5pm, 10-11 am: the first hour on the hour is read without "o'clock"
        RewriteRule(#"\b([0-9]{1,2})(?::([0-9]{2}))?(\s?[AaPp]\.?[Mm]\.?)? ?[-–] ?([0-9]{1,2})(:[0-9]{2})?(\s?[AaPp]\.?[Mm]\b\.?)"#) { m, text in
            guard let hour = m[group: 1], let endHour = m[group: 4], !isChain(text, m.range) else { return nil }
            let start = m[group: 2].map { $0 == "00" && m[group: 3] == nil ? hour : hour + ":" + $0 } ?? hour
            return start + (m[group: 3] ?? "") + " to " + endHour + (m[group: 5] ?? "") + (m[group: 6] ?? "")
        },
        // 8:00–9:15, 14:00-15:30
        RewriteRule(#"\b([0-9]{1,2}:[0-9]{2}) ?[-–] ?([0-9]{1,2}:[0-9]{2})\b"#) { m, text in
            guard let a = m[group: 1], let b = m[group: 2], !isChain(text, m.range) else { return nil }
            return a + " to " + b
        },
        // pages 20–25, 1914-18, 5–10 km, $5–10, 10-20%, March 3–5 (the end day read as an ordinal)
        RewriteRule(#"\b([0-9]+(?:[.,][0-9]+)*)(?:[–—]| [–—] |-)(\$|€|£)?([0-9]+(?:[.,][0-9]+)*)\b"#) { m, text in
            guard let a = m[group: 1], let b = m[group: 3], !isChain(text, m.range) else { return nil }
            let month = EnglishContext.previousWord(text, before: m.range.lowerBound)
            if b.count <= 2, a.count <= 2, monthNames.contains(String(month)), Int(b).map({ (1...31).contains($0) }) == true {
                return a + " to " + EnglishNumbers.ordinal(b)
            }
            return a + " to " + (m[group: 2] ?? "") + expandYear(a, b)
        },
    ]
}
