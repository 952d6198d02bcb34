/// Compound durations ("2 hr 5 min", "1h 30m", "3 min 20 s", "1 h 15 min 30 s"), where "m" is minutes and
/// a lone "h" or "s" is hours or seconds; single ones ("30 s", "45s") are read by the unit rules.
enum EnglishDurations {
    static let hours = "hrs|hr|h"
    static let minutes = "mins|min|m"
    static let seconds = "secs|sec|s"

    static func part(_ digits: String?, _ one: String, _ many: String) -> String? {
        guard let digits else { return nil }
        return EnglishNumbers.cardinal(digits) + " " + (digits.drop { $0 == "0" } == "1" ? one : many)
    }

    static let rules: [RewriteRule] = [
        // 1h30
        RewriteRule(#"\b([0-9]{1,2})h([0-9]{2})\b"#) { m, _ in
            guard let h = part(m[group: 1], "hour", "hours"), let minute = part(m[group: 2], "minute", "minutes") else { return nil }
            return h + " " + minute
        },
        // 2 hr 5 min, 1h 30m, 1 h 15 min 30 s
        RewriteRule(#"\b([0-9]{1,4}) ?(?:"# + hours + #")(?: and|,)? ([0-9]{1,2}) ?(?:"# + minutes + #")(?:(?: and|,)? ([0-9]{1,2}) ?(?:"# + seconds + #"))?\b"#) { m, _ in
            let h = part(m[group: 1], "hour", "hours")
            let minute = part(m[group: 2], "minute", "minutes")
            guard let h, let minute else { return nil }
            return ([h, minute] + [part(m[group: 3], "second", "seconds")].compactMap { $0 }).joined(separator: " ")
        },
        // 3 min 20 s, 5m 30s, 1 min, 30 sec
        RewriteRule(#"\b([0-9]{1,4}) ?(?:"# + minutes + #")(?: and|,)? ([0-9]{1,2}) ?(?:"# + seconds + #")\b"#) { m, _ in
            guard let minute = part(m[group: 1], "minute", "minutes"), let second = part(m[group: 2], "second", "seconds") else { return nil }
            return minute + " " + second
        },
    ]
}
