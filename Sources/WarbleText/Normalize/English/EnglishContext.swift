/// The words around a match, looked up within a bounded window so that every rule stays linear.
enum EnglishContext {
    /// How far (in characters) a rule may look before or after its match.
    static let window = 48

    /// The word (letters, digits, apostrophes, dots) that ends just before `index`, skipping spaces.
    static func previousWord(_ text: String, before index: String.Index) -> Substring {
        var end = index
        var budget = window
        while end > text.startIndex, budget > 0, text[text.index(before: end)] == " " {
            end = text.index(before: end)
            budget -= 1
        }
        var start = end
        while start > text.startIndex, budget > 0, isWordCharacter(text[text.index(before: start)]) {
            start = text.index(before: start)
            budget -= 1
        }
        return text[start..<end]
    }

    /// The word that starts just after `index`, skipping spaces.
    static func nextWord(_ text: String, after index: String.Index) -> Substring {
        var start = index
        var budget = window
        while start < text.endIndex, budget > 0, text[start] == " " {
            start = text.index(after: start)
            budget -= 1
        }
        var end = start
        while end < text.endIndex, budget > 0, isWordCharacter(text[end]) {
            end = text.index(after: end)
            budget -= 1
        }
        return text[start..<end]
    }

    /// The two words before `index`, nearest last.
    static func previousWords(_ text: String, before index: String.Index) -> (Substring, Substring) {
        let last = previousWord(text, before: index)
        return (previousWord(text, before: last.startIndex), last)
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "'" || c == "’" || c == "." }

    /// "5th", "42nd", "1".
    static func isNumberOrOrdinal(_ word: Substring) -> Bool {
        guard let first = word.first, first.isASCIIDigitCharacter else { return false }
        let letters = word.drop { $0.isASCIIDigitCharacter }
        return letters.isEmpty || ["st", "nd", "rd", "th"].contains(letters.lowercased())
    }

    static func isCapitalized(_ word: Substring) -> Bool { word.first?.isUppercase ?? false }
}
