/// Abbreviations (Dr., St., Mr., etc., vs., pp., in.): the context decides between readings.
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

    /// "Dr." and "St." name a street when they close an address ("Elm Dr.", "123 Main St. Springfield",
    /// "5th St."): nothing capitalised follows, or the word before is an ordinal, or it is a capitalised
    /// name after a house number. Otherwise they are titles ("Dr. Smith", "Ask Dr. Jones", "St. Louis").
    static func isStreet(_ text: String, _ range: Range<String.Index>) -> Bool {
        let next = EnglishContext.nextWord(text, after: range.upperBound)
        guard EnglishContext.isCapitalized(next) else { return true }
        let (beforeName, name) = EnglishContext.previousWords(text, before: range.lowerBound)
        if EnglishContext.isNumberOrOrdinal(name), name.contains(where: \.isLetter) { return true }
        return EnglishContext.isCapitalized(name) && EnglishContext.isNumberOrOrdinal(beforeName)
    }

    static let beforeNumber = [
        "pp": "pages", "p": "page", "ch": "chapter", "chap": "chapter", "fig": "figure", "figs": "figures", "vol": "volume",
        "vols": "volumes", "Fig": "Figure", "Vol": "Volume", "Ch": "Chapter", "Figs": "Figures", "Vols": "Volumes",
    ]

    static let rules: [RewriteRule] = [
        // Dr. Smith (Doctor) / Elm Dr. (Drive); St. Louis (Saint) / Main St. (Street)
        RewriteRule(#"\b(Dr|St)\."#) { m, text in
            let street = isStreet(text, m.range)
            switch m[group: 1] {
            case "Dr": return street ? "Drive" : "Doctor"
            default: return street ? "Street" : "Saint"
            }
        },
        // pp. 20 to 25, p. 7, ch. 3, fig. 2, vol. 4: before a number only
        RewriteRule(#"\b(pp|p|ch|chap|fig|figs|vol|vols|Fig|Vol|Ch|Figs|Vols)\. ?(?=[0-9])"#) { m, _ in
            m[group: 1].flatMap { beforeNumber[$0] }.map { $0 + " " }
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
