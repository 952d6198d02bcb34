/// English number words: cardinals, ordinals, years, digits, decimals.
enum EnglishNumbers {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let scales = [
        "", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion", "septillion",
        "octillion", "nonillion", "decillion",
    ]

    static func below1000(_ n: Int) -> String {
        var parts: [String] = []
        if n >= 100 { parts.append(ones[n / 100] + " hundred") }
        let rest = n % 100
        if rest > 0 || n == 0 {
            if rest < 20 {
                parts.append(ones[rest])
            } else {
                parts.append(tens[rest / 10] + (rest % 10 > 0 ? "-" + ones[rest % 10] : ""))
            }
        }
        return parts.joined(separator: " ")
    }

    /// Words for a string of ASCII digits of any length (beyond the named scales: digit by digit).
    static func cardinal(_ digits: some StringProtocol) -> String {
        let trimmed = digits.drop { $0 == "0" }
        if trimmed.isEmpty { return "zero" }
        let values = trimmed.compactMap { $0.wholeNumberValue }
        guard values.count <= scales.count * 3 else { return self.digits(digits) }
        var groups: [Int] = []
        var k = values.count
        while k > 0 {
            let start = max(0, k - 3)
            groups.append(values[start..<k].reduce(0) { $0 * 10 + $1 })
            k = start
        }
        var parts: [String] = []
        for (index, group) in groups.enumerated().reversed() where group > 0 {
            parts.append(below1000(group) + (index > 0 ? " " + scales[index] : ""))
        }
        return parts.joined(separator: " ")
    }

    static func cardinal(_ n: Int) -> String {
        n < 0 ? "minus " + cardinal(String(-n)) : cardinal(String(n))
    }

    /// "first", "twenty-second", "one hundredth".
    static func ordinal(_ digits: some StringProtocol) -> String {
        ordinalize(cardinal(digits))
    }

    static func ordinalize(_ words: String) -> String {
        let irregular = [
            "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
            "twelve": "twelfth",
        ]
        var end = words.endIndex
        while end > words.startIndex, words[words.index(before: end)].isLetter { end = words.index(before: end) }
        let head = words[..<end]
        let last = String(words[end...])
        if let word = irregular[last] { return head + word }
        if last.hasSuffix("y") { return head + last.dropLast() + "ieth" }
        return words + "th"
    }

    /// How a year is said: 1999 "nineteen ninety-nine", 1900 "nineteen hundred", 2005 "two thousand five",
    /// 2025 "twenty twenty-five", 1905 "nineteen oh five".
    static func year(_ n: Int) -> String {
        guard n >= 1000, n < 10000 else { return cardinal(n) }
        let high = n / 100
        let low = n % 100
        if n % 1000 < 10, n / 1000 >= 2 || low == 0 && high % 10 == 0 { return cardinal(n) }  // 2000, 2005, 1000
        if low == 0 { return cardinal(high) + " hundred" }
        if low < 10 { return cardinal(high) + " oh " + ones[low] }
        return cardinal(high) + " " + cardinal(low)
    }

    static let digitWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    /// "one two three" (zero read "zero"; `oh` reads it "oh" as in phone numbers and times).
    static func digits(_ s: some StringProtocol, oh: Bool = false) -> String {
        s.compactMap { $0.wholeNumberValue }.map { oh && $0 == 0 ? "oh" : digitWords[$0] }.joined(separator: " ")
    }

    /// "three point one four".
    static func decimal(_ whole: some StringProtocol, _ fraction: some StringProtocol) -> String {
        cardinal(whole.isEmpty ? "0" : String(whole)) + " point " + digits(fraction)
    }
}
