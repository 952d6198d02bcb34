/// URLs, bare domains and e-mail addresses ("at", "dot", "slash"), and spelled-out characters.
enum EnglishSpelling {
    static let symbolNames: [Character: String] = [
        ".": "dot", "/": "slash", "-": "dash", "_": "underscore", "?": "question mark", "=": "equals", "&": "and",
        ":": "colon", "#": "hash", "@": "at", "~": "tilde", "%": "percent", "+": "plus", "*": "star", "!": "exclamation mark",
        ",": "comma", ";": "semicolon", "(": "open paren", ")": "close paren", "$": "dollar", "'": "apostrophe",
        "\"": "quote", "\\": "backslash", "<": "less than", ">": "greater than", "|": "bar", "^": "caret",
        "[": "open bracket", "]": "close bracket", "{": "open brace", "}": "close brace", " ": "space",
    ]

    /// Reads an address part by part: words stay words, short all-consonant runs are spelled, digits one by one.
    static func address(_ s: Substring) -> String {
        var words: [String] = []
        var run = ""
        func flush(atEnd: Bool = false) {
            guard !run.isEmpty else { return }
            let lower = run.lowercased()
            if run.allSatisfy(\.isNumber) {
                words.append(EnglishNumbers.digits(run))
            } else if run.count <= 3 && !lower.contains(where: { "aeiouy".contains($0) }) || lower == "www"
                || atEnd && run.count == 2 && lower != "co" && lower != "me"  // a country code: "u k", "i o"
            {
                words.append(run.map(String.init).joined(separator: " "))
            } else {
                words.append(run)
            }
            run = ""
        }
        for c in s {
            if c.isLetter || c.isNumber {
                if let last = run.last, last.isNumber != c.isNumber { flush() }
                run.append(c)
            } else {
                flush()
                words.append(symbolNames[c] ?? String(c))
            }
        }
        flush(atEnd: true)
        return words.joined(separator: " ")
    }

    /// Trailing sentence punctuation is not part of a URL.
    static func splitTrailingPunctuation(_ s: String) -> (Substring, Substring) {
        var end = s.endIndex
        while end > s.startIndex, ".,;:!?)]'\"".contains(s[s.index(before: end)]) { end = s.index(before: end) }
        return (s[..<end], s[end...])
    }

    static let topLevelDomains = "com|org|net|edu|gov|io|dev|co|uk|us|ca|au|de|fr|nl|info|app|ai|me|tv|ly|biz"

    static let rules: [RewriteRule] = [
        RewriteRule(#"(?i)\b(?:https?://|ftp://|www\.)[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"#) { match, _ in
            let (url, trailing) = splitTrailingPunctuation(String(match.output[0].substring ?? ""))
            var body = url
            for scheme in ["https://", "http://"] where body.lowercased().hasPrefix(scheme) {
                body = body.dropFirst(scheme.count)
            }
            if body.hasSuffix("/") { body = body.dropLast() }
            return address(body) + trailing
        },
        RewriteRule(#"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+"#) { match, _ in
            let (email, trailing) = splitTrailingPunctuation(String(match.output[0].substring ?? ""))
            return address(email) + trailing
        },
        // example.com, warble.dev/docs, bbc.co.uk: a bare domain with a common top-level domain
        RewriteRule(#"\b[A-Za-z0-9][A-Za-z0-9\-]*(?:\.[A-Za-z0-9\-]+)*\.(?:"# + topLevelDomains + #")\b(?:/[A-Za-z0-9\-._~/?#=&%]*)?"#) { match, _ in
            let (domain, trailing) = splitTrailingPunctuation(String(match.output[0].substring ?? ""))
            return address(domain.hasSuffix("/") ? domain.dropLast() : domain) + trailing
        },
    ]

    /// Each character on its own: letters as letters, digits as digit words, symbols by name.
    static func characters(_ s: String) -> String {
        s.compactMap { c -> String? in
            if c.isWhitespace { return nil }
            if let digit = c.wholeNumberValue, c.isASCII { return EnglishNumbers.digitWords[digit] }
            if c.isLetter { return c.uppercased() }
            return symbolNames[c] ?? String(c)
        }.joined(separator: " ")
    }

    /// A telephone number: digit groups as written, "plus" for the country prefix.
    static func telephone(_ s: String) -> String {
        var groups: [String] = []
        var current = ""
        for c in s {
            if c.isASCIIDigitCharacter {
                current.append(c)
            } else {
                if !current.isEmpty { groups.append(EnglishNumbers.digits(current, oh: true)) }
                current = ""
                if c == "+" { groups.append("plus") }
            }
        }
        if !current.isEmpty { groups.append(EnglishNumbers.digits(current, oh: true)) }
        return groups.joined(separator: ", ").replacingOccurrences(of: "plus, ", with: "plus ")
    }
}
