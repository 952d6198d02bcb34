/// Text from outside (an imported file, a request, a model's output) as it may reach a terminal, a log or
/// another program: nothing in it may move the cursor, change colours, erase a line or reorder what is shown.
public enum PrintableText {
    /// Whether `scalar` is one that must not reach a terminal raw: C0 controls, DEL, C1 controls, and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). With
    /// `allowingLineBreaks`, `\n` and `\t` are allowed (texts of several lines).
    public static func isUnsafe(_ scalar: Unicode.Scalar, allowingLineBreaks: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !allowingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` holds nothing unsafe and at most `maximumLength` characters.
    public static func isPrintable(_ text: String, maximumLength: Int, allowingLineBreaks: Bool = false) -> Bool {
        text.count <= maximumLength && !text.unicodeScalars.contains { isUnsafe($0, allowingLineBreaks: allowingLineBreaks) }
    }

    /// `text` with every unsafe scalar written as a visible escape (`\u{1B}`), the rest as it is.
    public static func escaped(_ text: String, allowingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0, allowingLineBreaks: allowingLineBreaks) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar, allowingLineBreaks: allowingLineBreaks) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `tag` has a BCP 47 tag's shape: 1–35 ASCII letters, digits and `-`, starting with a letter
    /// (what an imported file may give as a language).
    public static func isLanguageTag(_ tag: String) -> Bool {
        guard (1...35).contains(tag.count), tag.first?.isLetter == true else { return false }
        return tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
