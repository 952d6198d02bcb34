/// Currency ($12.50, €3, £1m), percentages and units (km, kg, °C, mph…).
enum EnglishMeasures {
    struct Currency {
        let one: String, many: String, centOne: String, centMany: String
    }

    static let currencies: [String: Currency] = [
        "$": Currency(one: "dollar", many: "dollars", centOne: "cent", centMany: "cents"),
        "€": Currency(one: "euro", many: "euros", centOne: "cent", centMany: "cents"),
        "£": Currency(one: "pound", many: "pounds", centOne: "penny", centMany: "pence"),
        "¥": Currency(one: "yen", many: "yen", centOne: "sen", centMany: "sen"),
        "₹": Currency(one: "rupee", many: "rupees", centOne: "paisa", centMany: "paise"),
    ]

    static let scaleWords: [String: String] = [
        "k": "thousand", "thousand": "thousand", "m": "million", "mn": "million", "million": "million",
        "b": "billion", "bn": "billion", "billion": "billion", "t": "trillion", "tn": "trillion", "trillion": "trillion",
    ]

    /// (singular, plural) names; units that need a number right before them without a space are in `attachedOnly`.
    static let units: [String: (String, String)] = [
        "km": ("kilometer", "kilometers"), "m": ("meter", "meters"), "cm": ("centimeter", "centimeters"),
        "mm": ("millimeter", "millimeters"), "mi": ("mile", "miles"), "ft": ("foot", "feet"),
        "kg": ("kilogram", "kilograms"), "g": ("gram", "grams"), "mg": ("milligram", "milligrams"),
        "lb": ("pound", "pounds"), "lbs": ("pound", "pounds"), "oz": ("ounce", "ounces"),
        "mph": ("mile per hour", "miles per hour"), "km/h": ("kilometer per hour", "kilometers per hour"),
        "kph": ("kilometer per hour", "kilometers per hour"),
        "°C": ("degree Celsius", "degrees Celsius"), "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
        "°": ("degree", "degrees"), "K": ("kelvin", "kelvins"),
        "l": ("liter", "liters"), "L": ("liter", "liters"), "ml": ("milliliter", "milliliters"), "mL": ("milliliter", "milliliters"),
        "h": ("hour", "hours"), "hr": ("hour", "hours"), "hrs": ("hour", "hours"), "min": ("minute", "minutes"),
        "s": ("second", "seconds"), "sec": ("second", "seconds"), "ms": ("millisecond", "milliseconds"),
        "Hz": ("hertz", "hertz"), "kHz": ("kilohertz", "kilohertz"), "MHz": ("megahertz", "megahertz"),
        "GHz": ("gigahertz", "gigahertz"), "KB": ("kilobyte", "kilobytes"), "MB": ("megabyte", "megabytes"),
        "GB": ("gigabyte", "gigabytes"), "TB": ("terabyte", "terabytes"), "W": ("watt", "watts"),
        "kW": ("kilowatt", "kilowatts"), "kWh": ("kilowatt hour", "kilowatt hours"), "V": ("volt", "volts"),
        "mAh": ("milliamp hour", "milliamp hours"),
    ]
    /// "30 s" and "2 h" after a number are seconds and hours (a plural "s" is never written apart);
    /// "5 m" might be a million, "5 g" a grade: those need the number right before them.
    static let attachedOnly: Set<String> = ["m", "g", "l", "L", "K", "W", "V"]

    /// Unit symbols, longest first so that "km/h" wins over "km".
    static let unitPattern = units.keys.sorted { $0.count > $1.count }.map { key in
        key.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\\($0)" : String($0) }.joined()
    }.joined(separator: "|")

    static func isOne(_ number: String) -> Bool { number == "1" }

    static let rules: [RewriteRule] = [
        // $12.50, -$5, €3, £1m, $1.5 billion
        RewriteRule(#"(-)?([$€£¥₹])\s?([0-9][0-9,]*)(?:\.([0-9]+))?(?:\s?(k|mn|m|bn|b|tn|t|thousand|million|billion|trillion)\b)?"#) { m, _ in
            guard let symbol = m[group: 2], let currency = currencies[symbol] else { return nil }
            let whole = (m[group: 3] ?? "0").replacingOccurrences(of: ",", with: "")
            let fraction = m[group: 4]
            let sign = m[group: 1] != nil ? "minus " : ""
            if let scale = m[group: 5].flatMap({ scaleWords[$0.lowercased()] }) {
                let amount = fraction.map { EnglishNumbers.decimal(whole, $0) } ?? EnglishNumbers.cardinal(whole)
                return sign + amount + " " + scale + " " + currency.many
            }
            var out = sign + EnglishNumbers.cardinal(whole) + " " + (isOne(whole) ? currency.one : currency.many)
            if let fraction {
                guard fraction.count <= 2 else {
                    return sign + EnglishNumbers.decimal(whole, fraction) + " " + currency.many
                }
                let cents = Int(fraction.count == 1 ? fraction + "0" : fraction) ?? 0
                if cents > 0 {
                    out += " and " + EnglishNumbers.cardinal(cents) + " " + (cents == 1 ? currency.centOne : currency.centMany)
                }
            }
            return out
        },
        // 50%, 3.5 %, -2%
        RewriteRule(#"(-)?\b([0-9][0-9,]*)(?:\.([0-9]+))?\s?%"#) { m, _ in
            let whole = (m[group: 2] ?? "0").replacingOccurrences(of: ",", with: "")
            let amount = m[group: 3].map { EnglishNumbers.decimal(whole, $0) } ?? EnglishNumbers.cardinal(whole)
            return (m[group: 1] != nil ? "minus " : "") + amount + " percent"
        },
        // 5 km, 3.5kg, 20°C, 60 mph
        RewriteRule(#"(-)?\b([0-9][0-9,]*)(?:\.([0-9]+))?(\s?)("# + unitPattern + #")(?![A-Za-z0-9])"#) { m, _ in
            guard let symbol = m[group: 5], let names = units[symbol] else { return nil }
            if attachedOnly.contains(symbol), m[group: 4] != "" { return nil }
            let whole = (m[group: 2] ?? "0").replacingOccurrences(of: ",", with: "")
            let fraction = m[group: 3]
            let amount = fraction.map { EnglishNumbers.decimal(whole, $0) } ?? EnglishNumbers.cardinal(whole)
            let name = fraction == nil && isOne(whole) ? names.0 : names.1
            return (m[group: 1] != nil ? "minus " : "") + amount + " " + name
        },
    ]
}
