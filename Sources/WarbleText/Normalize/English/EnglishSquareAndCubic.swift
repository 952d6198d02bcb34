/// Square and cubic units: m², cm³, km^2, sq ft, sq. mi., cu in, m/s², "per m²".
enum EnglishSquareAndCubic {
    static let bases: [String: (String, String)] = [
        "km": ("kilometer", "kilometers"), "m": ("meter", "meters"), "cm": ("centimeter", "centimeters"),
        "mm": ("millimeter", "millimeters"), "mi": ("mile", "miles"), "ft": ("foot", "feet"), "in": ("inch", "inches"),
        "yd": ("yard", "yards"),
    ]
    static let basePattern = "km|cm|mm|mi|ft|in|yd|m"

    static func power(_ symbol: String) -> String? {
        switch symbol {
        case "²", "^2", "2", "sq", "sq.": return "square"
        case "³", "^3", "3", "cu", "cu.": return "cubic"
        default: return nil
        }
    }

    static func amount(_ whole: String?, _ fraction: String?) -> (String, Bool)? {
        guard let whole = whole?.replacingOccurrences(of: ",", with: "") else { return nil }
        if let fraction { return (EnglishNumbers.decimal(whole, fraction), true) }
        return (EnglishNumbers.cardinal(whole), whole != "1")
    }

    static let rules: [RewriteRule] = [
        // 100 m², 2.5 cm³, 40 km^2, 3m2
        RewriteRule(#"\b([0-9][0-9,]*)(?:\.([0-9]+))? ?("# + basePattern + #")(²|³|\^2|\^3|2|3)(?![A-Za-z0-9])"#) { m, _ in
            guard let (number, plural) = amount(m[group: 1], m[group: 2]), let base = m[group: 3].flatMap({ bases[$0] }),
                let power = m[group: 4].flatMap(power)
            else { return nil }
            return number + " " + power + " " + (plural ? base.1 : base.0)
        },
        // 1,200 sq ft, 3 sq. mi., 5 cu in
        RewriteRule(#"\b([0-9][0-9,]*)(?:\.([0-9]+))? ?(sq\.?|cu\.?) ?("# + basePattern + #")\b\.?"#) { m, _ in
            guard let (number, plural) = amount(m[group: 1], m[group: 2]), let base = m[group: 4].flatMap({ bases[$0] }),
                let power = m[group: 3].flatMap(power)
            else { return nil }
            return number + " " + power + " " + (plural ? base.1 : base.0)
        },
        // m/s², per m²
        RewriteRule(#"\b(?:m/s²|m/s\^2)(?![A-Za-z0-9])"#) { _, _ in "meters per second squared" },
        RewriteRule(#"\b("# + basePattern + #")(²|³)(?![A-Za-z0-9])"#) { m, _ in
            guard let base = m[group: 1].flatMap({ bases[$0] }), let power = m[group: 2].flatMap(power) else { return nil }
            return power + " " + base.0
        },
    ]
}
