/// Telephone numbers in common national and international formats, read digit by digit in the groups
/// they are written in: "(212) 555-0147", "1-800-555-0199", "+44 20 7946 0958", "+33 1 23 45 67 89",
/// "020 7946 0958", "(02) 9374 4000", and a local "555-0147" when it is not a range.
enum EnglishPhoneNumbers {
    /// Words before a local number that make "555-1234" a telephone number rather than a range.
    static let cues: Set<String> = ["call", "phone", "tel", "tel.", "dial", "fax", "text", "number", "at", "is", "line", "ring"]

    static func digitCount(_ s: some StringProtocol) -> Int { s.reduce(0) { $0 + ($1.isASCIIDigitCharacter ? 1 : 0) } }

    static let rules: [RewriteRule] = [
        // +44 20 7946 0958, +1 (555) 123-4567, +33 1 23 45 67 89, +49 30 1234567, +12125550147
        RewriteRule(#"\+[0-9]{1,3}(?:(?:[ .\-]|[ .\-]?\()[0-9]{1,10}\)?){1,6}(?![0-9])|\+[0-9]{8,15}\b"#) { m, _ in
            guard let number = m.output[0].substring, (8...15).contains(digitCount(number)) else { return nil }
            return EnglishSpelling.telephone(String(number))
        },
        // (212) 555-0147, 212-555-0147, 212.555.0147, 1-800-555-0199, 1 (800) 555-0199
        RewriteRule(#"(?:\b1[ .\-])?(?:\([0-9]{3}\) ?|\b[0-9]{3}[ .\-]?)[0-9]{3}[.\-][0-9]{4}\b"#) { m, _ in
            m.output[0].substring.map { EnglishSpelling.telephone(String($0)) }
        },
        // 020 7946 0958, 0412 345 678, 07700 900123, (02) 9374 4000
        RewriteRule(#"(?:\(0[0-9]{1,4}\)|\b0[0-9]{1,4})[ \-][0-9]{3,4}[ \-]?[0-9]{3,4}\b"#) { m, _ in
            guard let number = m.output[0].substring, (9...11).contains(digitCount(number)) else { return nil }
            return EnglishSpelling.telephone(String(number))
        },
        // call 555-0147, 555-0147 (the second part smaller or with a leading zero: not a range)
        RewriteRule(#"\b([2-9][0-9]{2})-([0-9]{4})\b"#) { m, text in
            guard let first = m[group: 1], let second = m[group: 2], !EnglishRanges.isChain(text, m.range) else { return nil }
            let before = EnglishContext.previousWord(text, before: m.range.lowerBound).lowercased()
            guard cues.contains(before) || second.hasPrefix("0") || (Int(second) ?? 0) <= (Int(first) ?? 0) else { return nil }
            return EnglishSpelling.telephone(first + "-" + second)
        },
    ]
}
