/// Roman numerals where the context says they are numbers: ordinal after a monarch's or pope's name
/// ("Elizabeth II" → "Elizabeth the Second", "Pope John XXIII" → "Pope John the Twenty-third") and
/// after a full name as a generational suffix ("John Smith III"); cardinal after a word that numbers
/// things ("Chapter IV", "Part ii", "Vol. III", "World War II", "Super Bowl LVII", "Apollo XI").
enum EnglishRomanNumerals {
    static let regnalNames =
        "King|Queen|Pope|Emperor|Empress|Tsar|Czar|Prince|Princess|Duke|Henry|Edward|Elizabeth|George|Louis|Charles|James|William|Richard|John|Mary|Philip|Pius|Leo|Benedict|Gregory|Innocent|Clement|Boniface|Napoleon|Frederick|Alexander|Peter|Ivan|Nicholas|Constantine|Ramesses|Ptolemy|Alfonso|Ferdinand|Carlos|Juan|Gustav|Olaf|Harald|Christian|Victor|Umberto|Otto|Rudolf|Wilhelm|Friedrich|Ludwig|Anne|Catherine|Isabella|Henri|Stephen|Malcolm|David|Robert|Alexios|Basil|Michael|Paul|Sixtus|Urban|Julius|Adrian|Celestine|Honorius|Eugene|Martin|Felipe|Willem|Haakon|Carl|Pedro|Manuel|Afonso|Sancho|Baldwin|Amenhotep|Thutmose|Seti|Rama|Mehmed|Murad|Selim|Suleiman|Abdullah|Hussein|Mohammed|Vasily|Boris|Casimir|Sigismund|Francis|Francesco|Joseph|Leopold|Maximilian|Matthias|Kenneth|Duncan|Edmund|Harold|Canute|Cnut|Ethelred|Victoria|Margrethe|Beatrix|Albert|Baudouin|Rainier|Hirohito|Farouk|Fuad|Mswati|Sobhuza|Kamehameha|Liliuokalani"
    static let numberingWords =
        "Chapter|Book|Part|Volume|Vol\\.|Act|Scene|Section|Article|Psalm|Appendix|Phase|Level|Round|Stage|Title|Unit|Class|Type|Grade|Year|War|Series|Episode|Canto|Movement|Symphony|Bowl|Apollo|Gemini|Mercury|Schedule|Annex|Amendment|Division|Category|Band|Tier|Mark|Mk\\.|Form|Plate|Figure|Fig\\.|Table|Group|Region|District|Ward|Zone|Platoon|Corps"

    static func romanValue(_ s: String) -> Int? {
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        guard s.count <= 15 else { return nil }  // MMMDCCCLXXXVIII is the longest canonical numeral
        var total = 0
        var previous = 0
        for c in s.uppercased().reversed() {
            guard let v = values[c] else { return nil }
            total += v < previous ? -v : v
            previous = max(previous, v)
        }
        guard total > 0, total < 4000, roman(total) == s.uppercased() else { return nil }  // only canonical numerals
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

    /// "the Second", "the Twenty-third".
    static func regnal(_ value: Int) -> String { "the " + EnglishNumbers.ordinalize(EnglishNumbers.cardinal(value)).capitalizedFirst }

    static let expansions = ["Vol.": "Volume", "vol.": "volume", "Mk.": "Mark", "Fig.": "Figure", "fig.": "figure"]

    /// Upper-case numerals of two letters or more, or I, V, X alone ("Appendix C" and "Grade D" are letters);
    /// lower-case numerals of i, v and x only ("Scene ii", not "Movement mix"); "I" never after a lower-case
    /// word ("the part I liked").
    static func accepts(_ numeral: String, after word: String) -> Bool {
        let capitalWord = word.first?.isUppercase == true
        if numeral == numeral.uppercased() {
            if numeral == "I" { return capitalWord }
            return numeral.count > 1 || "VX".contains(numeral)
        }
        return numeral == numeral.lowercased() && numeral.allSatisfy { "ivx".contains($0) }
    }

    static let rules: [RewriteRule] = [
        // Chapter IV, Part ii, Vol. III, World War II, Super Bowl LVII, chapter iv
        RewriteRule(#"(?i)\b("# + numberingWords + #") +([IVXLCDM]{1,15})(?![A-Za-z0-9])"#) { m, _ in
            guard let word = m[group: 1], let numeral = m[group: 2], let value = romanValue(numeral), accepts(numeral, after: word)
            else { return nil }
            return (expansions[word] ?? word) + " " + EnglishNumbers.cardinal(value)
        },
        // Henry VIII, Pope John Paul II, Louis XIV, Queen Elizabeth II's
        RewriteRule(#"\b("# + regnalNames + #")\s+([IVXLCDM]{1,15})(?![A-Za-z0-9])"#) { m, _ in
            guard let name = m[group: 1], let numeral = m[group: 2], let value = romanValue(numeral),
                numeral != "I" || !["King", "Queen", "Prince", "Princess", "Duke", "Pope", "Emperor", "Empress"].contains(name)
            else { return nil }
            return name + " " + regnal(value)
        },
        // John Smith III, Thurston Howell II: a generational suffix after a first name and a surname
        RewriteRule(#"\b([A-Z][a-z]+ [A-Z][a-z]+),? (II|III)(?![A-Za-z0-9])"#) { m, _ in
            guard let name = m[group: 1], let value = m[group: 2].flatMap(romanValue) else { return nil }
            return name + " " + regnal(value)
        },
    ]
}
