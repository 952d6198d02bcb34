import Foundation
import WarbleText

/// The character-level rules of CosyVoice's text front end (the model authors' `frontend_utils`),
/// over Unicode scalars as Python's `str` counts them.
enum CosyVoiceTextRules {
    /// Whether the text holds a CJK unified ideograph (U+4E00–U+9FFF), the authors' test for Chinese.
    static func containsChinese(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
    }

    /// Whether the text holds both `<|` and `|>`: such text (special tokens, cross-lingual or
    /// instruct prompts) skips normalisation and splitting.
    static func isTagged(_ text: String) -> Bool {
        text.contains("<|") && text.contains("|>")
    }

    /// Python's `str.isspace`: the Unicode White_Space characters and U+001C–U+001F.
    static func isPythonSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
    }

    /// Python's `str.strip()`.
    static func strip(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !isPythonSpace($0) }),
            let last = scalars.lastIndex(where: { !isPythonSpace($0) })
        else { return "" }
        return string(scalars[first...last])
    }

    /// A space stays only between two ASCII characters that are not spaces ("hello world" keeps it,
    /// "你好 世界" and "你好 world" lose it).
    static func replaceBlank(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            if scalar == " " {
                // Python indexes text[i - 1] from the end at i == 0, and fails past the end; neither can
                // happen after strip(), and a space at either end is dropped here.
                guard i > 0, i + 1 < scalars.count else { continue }
                let before = scalars[i - 1], after = scalars[i + 1]
                if after.isASCII, after != " ", before.isASCII, before != " " { out.append(scalar) }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// ² and ³ read as 平方 and 立方.
    static func replaceCornerMarks(_ text: String) -> String {
        replace(replace(text, "²", with: "平方"), "³", with: "立方")
    }

    /// Drops full-width parentheses, 【】 and backticks; "——" becomes a space.
    static func removeBrackets(_ text: String) -> String {
        var text = text
        for mark in ["（", "）", "【", "】", "`"] { text = replace(text, mark, with: "") }
        return replace(text, "——", with: " ")
    }

    /// A trailing run of `，`, `,` or `、` becomes one `。`.
    static func endWithFullStop(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        let trailing = scalars.reversed().prefix { $0 == "，" || $0 == "," || $0 == "、" }.count
        guard trailing > 0 else { return text }
        scalars.removeLast(trailing)
        scalars.append("。")
        return string(scalars[...])
    }

    /// Whether the text is empty or only punctuation and symbols (general categories P* and S*).
    static func isOnlyPunctuation(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation,
                .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default:
                return false
            }
        }
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Python's `str.replace`: every non-overlapping occurrence, left to right, compared scalar by
    /// scalar (so "\n" is found inside "\r\n", which Swift's `Character` comparison would not do).
    static func replace(_ text: String, _ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        guard !needle.isEmpty, scalars.count >= needle.count else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if i + needle.count <= scalars.count, scalars[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.unicodeScalars)
                i += needle.count
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }
}
