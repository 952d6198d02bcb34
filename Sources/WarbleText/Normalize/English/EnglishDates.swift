/// Dates (3/14/2025, 2025-03-14, March 3rd, 2025, 3 March 2025) and times (4:30 pm, 16:05, 7 a.m.).
enum EnglishDates {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    static let monthPattern =
        "January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"

    static func month(named name: String) -> Int? {
        let lower = name.lowercased()
        return months.firstIndex { $0.lowercased().hasPrefix(lower.prefix(3)) }.map { $0 + 1 }
    }

    static func year(_ digits: String) -> String {
        guard let n = Int(digits) else { return digits }
        return digits.count == 2 ? EnglishNumbers.year(2000 + n) : EnglishNumbers.year(n)
    }

    /// "March fourteenth, twenty twenty-five".
    static func say(month: Int, day: Int?, year: String?) -> String? {
        guard (1...12).contains(month), day.map({ (1...31).contains($0) }) ?? true else { return nil }
        var out = months[month - 1]
        if let day { out += " " + EnglishNumbers.ordinal(String(day)) }
        if let year { out += (day == nil ? " " : ", ") + self.year(year) }
        return out
    }

    /// A numeric date read in the given SSML `format` (mdy, dmy, ymd, md, dm, ym, my, y, m, d).
    static func date(_ text: String, format: String) -> String? {
        let parts = text.split { !$0.isASCIIDigitCharacter }.map(String.init)
        let order = Array(format.lowercased())
        guard parts.count == order.count, !parts.isEmpty else { return nil }
        var month: Int?
        var day: Int?
        var year: String?
        for (key, value) in zip(order, parts) {
            switch key {
            case "m": month = Int(value)
            case "d": day = Int(value)
            case "y": year = value
            default: return nil
            }
        }
        if let month { return say(month: month, day: day, year: year) }
        if let day { return "the " + EnglishNumbers.ordinal(String(day)) }
        return year.map(self.year)
    }

    static func hourMinute(_ hour: Int, _ minute: Int, meridiem: String?) -> String? {
        guard (0...24).contains(hour), (0...59).contains(minute) else { return nil }
        var out = EnglishNumbers.cardinal(hour)
        if minute == 0 {
            if meridiem == nil { out += hour <= 12 ? " o'clock" : " hundred" }
        } else if minute < 10 {
            out += " oh " + EnglishNumbers.ones[minute]
        } else {
            out += " " + EnglishNumbers.cardinal(minute)
        }
        if let meridiem { out += meridiem.lowercased().hasPrefix("a") ? " a m" : " p m" }
        return out
    }

    static let rules: [RewriteRule] = [
        // 2025-03-14
        RewriteRule(#"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b"#) { m, _ in
            say(month: Int(m[group: 2] ?? "") ?? 0, day: Int(m[group: 3] ?? ""), year: m[group: 1])
        },
        // 3/14/2025 (month first, as in the US)
        RewriteRule(#"\b([0-9]{1,2})/([0-9]{1,2})/([0-9]{4}|[0-9]{2})\b"#) { m, _ in
            say(month: Int(m[group: 1] ?? "") ?? 0, day: Int(m[group: 2] ?? ""), year: m[group: 3])
        },
        // March 3rd, 2025 / March 3 / Mar. 3, 2025
        RewriteRule(#"\b("# + monthPattern + #")\.? ([0-9]{1,2})(?:st|nd|rd|th)?\b(?:,? ([0-9]{4})\b)?"#) { m, _ in
            say(month: month(named: m[group: 1] ?? "") ?? 0, day: Int(m[group: 2] ?? ""), year: m[group: 3])
        },
        // 3 March 2025 / 3rd of March
        RewriteRule(#"\b([0-9]{1,2})(?:st|nd|rd|th)? (?:of )?("# + monthPattern + #")\b\.?(?:,? ([0-9]{4})\b)?"#) { m, _ in
            guard let day = Int(m[group: 1] ?? ""), (1...31).contains(day), let month = month(named: m[group: 2] ?? "") else { return nil }
            return "the " + EnglishNumbers.ordinal(String(day)) + " of " + months[month - 1] + (m[group: 3].map { " " + year($0) } ?? "")
        },
        // March 2025
        RewriteRule(#"\b("# + monthPattern + #") ([0-9]{4})\b"#) { m, _ in
            say(month: month(named: m[group: 1] ?? "") ?? 0, day: nil, year: m[group: 2])
        },
        // 4:30 pm, 16:05, 4:30:15
        RewriteRule(#"\b([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?(?:\s?([AaPp])\.?[Mm]\b)?"#) { m, _ in
            guard let hour = Int(m[group: 1] ?? ""), let minute = Int(m[group: 2] ?? "") else { return nil }
            guard var out = hourMinute(hour, minute, meridiem: m[group: 4]) else { return nil }
            if let seconds = m[group: 3].flatMap({ Int($0) }) {
                out += " and " + EnglishNumbers.cardinal(seconds) + (seconds == 1 ? " second" : " seconds")
            }
            return out
        },
        // 7 pm, 7 a.m.
        RewriteRule(#"\b([0-9]{1,2})\s?([AaPp])\.?[Mm]\b"#) { m, _ in
            guard let hour = Int(m[group: 1] ?? ""), (1...12).contains(hour) else { return nil }
            return hourMinute(hour, 0, meridiem: m[group: 2])
        },
    ]
}
