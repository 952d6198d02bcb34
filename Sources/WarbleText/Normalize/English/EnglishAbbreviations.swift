/// Abbreviations (Dr., St., Mr., etc., vs.) and Roman numerals where the context says they are numbers.
enum EnglishAbbreviations {
    /// Always expanded.
    static let fixed: [String: String] = [
        "Mr.": "Mister", "Mrs.": "Missus", "Ms.": "Miz", "Prof.": "Professor", "Jr.": "Junior", "Sr.": "Senior",
        "Mt.": "Mount", "Capt.": "Captain", "Gen.": "General", "Lt.": "Lieutenant", "Col.": "Colonel",
        "Sgt.": "Sergeant", "Rev.": "Reverend", "Hon.": "Honorable", "vs.": "versus", "vs": "versus",
        "e.g.": "for example", "i.e.": "that is", "approx.": "approximately", "Ave.": "Avenue", "Blvd.": "Boulevard",
        "Rd.": "Road", "Dept.": "Department", "Inc.": "Incorporated", "Ltd.": "Limited", "Co.": "Company",
        "Corp.": "Corporation",
    ]

    static let regnalNames =
        "King|Queen|Pope|Emperor|Empress|Tsar|Czar|Prince|Princess|Duke|Henry|Edward|Elizabeth|George|Louis|Charles|James|William|Richard|John|Mary|Philip|Pius|Leo|Benedict|Gregory|Innocent|Clement|Boniface|Napoleon|Frederick|Alexander|Peter|Ivan|Nicholas|Constantine|Ramesses|Ptolemy|Alfonso|Ferdinand|Carlos|Juan|Gustav|Olaf|Harald|Christian|Victor|Umberto|Otto|Rudolf|Wilhelm|Friedrich|Ludwig|Anne|Catherine|Isabella|Henri|Stephen|Malcolm|David|Robert|Alexios|Basil|Michael|Paul|Sixtus|Urban|Julius|Adrian|Celestine|Honorius|Eugene|Martin|Nicholas"
    static let numberedWords =
        "Chapter|Book|Part|Volume|Act|Scene|Section|Article|Psalm|Appendix|Phase|Level|Round|Stage|Title|Unit|Class|Type|Grade|Year|War|Series|Episode|Canto|Movement|Symphony"

    static func romanValue(_ s: String) -> Int? {
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0
        var previous = 0
        for c in s.reversed() {
            guard let v = values[c] else { return nil }
            total += v < previous ? -v : v
            previous = max(previous, v)
        }
        guard total > 0, total < 4000, roman(total) == s else { return nil }  // only canonical numerals
        return total
    }

    static func roman(_ n: Int) -> String {
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"),
            (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var n = n
        var out = ""
        for (value, symbol) in table {
            while n >= value {
                out += symbol
                n -= value
            }
        }
        return out
    }

    /// True when the next word after `index` starts with a capital letter (Dr. Smith, St. Louis).
    static func capitalFollows(_ text: String, after index: String.Index) -> Bool {
        let rest = text[index...].drop { $0 == " " }
        return rest.first?.isUppercase ?? false
    }

    static let rules: [RewriteRule] = [
        // Chapter IV, World War II
        RewriteRule(#"\b("# + numberedWords + #")\s+([IVXLCDM]+)\b"#) { m, _ in
            guard let word = m[group: 1], let value = m[group: 2].flatMap(romanValue) else { return nil }
            return word + " " + EnglishNumbers.cardinal(value)
        },
        // Henry VIII, Pope John Paul II, Louis XIV
        RewriteRule(#"\b("# + regnalNames + #")\s+([IVXLCDM]+)\b"#) { m, _ in
            guard let name = m[group: 1], let numeral = m[group: 2], let value = romanValue(numeral), numeral != "I" || name != "King" else {
                return nil
            }
            return name + " the " + EnglishNumbers.ordinalize(EnglishNumbers.cardinal(value)).capitalizedFirst
        },
        // Dr. Smith (Doctor) / Elm Dr. (Drive); St. Louis (Saint) / Main St. (Street)
        RewriteRule(#"\b(Dr|St)\."#) { m, text in
            let isTitle = capitalFollows(text, after: m.range.upperBound)
            switch m[group: 1] {
            case "Dr": return isTitle ? "Doctor" : "Drive"
            default: return isTitle ? "Saint" : "Street"
            }
        },
        // etc. keeps its dot when it ends the sentence
        RewriteRule(#"\betc\."#) { m, text in
            let rest = text[m.range.upperBound...].drop { $0 == " " }
            return rest.isEmpty || rest.first?.isUppercase == true || rest.first == "\n" ? "et cetera." : "et cetera"
        },
        // No. 5
        RewriteRule(#"\b(No|no|Nos|nos)\.\s?(?=[0-9])"#) { _, _ in "number " },
        RewriteRule(#"\b(Mr\.|Mrs\.|Ms\.|Prof\.|Jr\.|Sr\.|Mt\.|Capt\.|Gen\.|Lt\.|Col\.|Sgt\.|Rev\.|Hon\.|vs\.?|e\.g\.|i\.e\.|approx\.|Ave\.|Blvd\.|Rd\.|Dept\.|Inc\.|Ltd\.|Co\.|Corp\.)(?![A-Za-z])"#) { m, _ in
            m[group: 1].flatMap { fixed[$0] }
        },
        RewriteRule(#"\s&\s"#) { _, _ in " and " },
    ]
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
