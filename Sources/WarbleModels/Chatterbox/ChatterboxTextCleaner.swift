import Foundation
import WarbleText

/// Chatterbox Turbo's text clean-up (the authors' `punc_norm` in `tts_turbo.py`), step for step and
/// over Unicode scalars as Python's `str` counts them, quirks included: the first letter is upper-cased
/// before white space is collapsed (so "  hello" stays lower case), and "…" becomes ", " after the
/// collapse (so "Wait… what" keeps two spaces).
public enum ChatterboxTextCleaner {
    /// What the authors speak for empty text.
    public static let emptyText = "You need to add some text for me to talk."

    /// Replacements, in the authors' order.
    static let replacements: [(String, String)] = [
        ("…", ", "), (":", ","), ("—", "-"), ("–", "-"), (" ,", ","),
        ("\u{201C}", "\""), ("\u{201D}", "\""), ("\u{2018}", "'"), ("\u{2019}", "'"),
    ]

    /// Endings that need no full stop.
    static let endings: Set<Unicode.Scalar> = [".", "!", "?", "-", ","]

    public static func clean(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        guard let first = scalars.first else { return emptyText }
        // Python's `str.islower()` on one code point, then `str.upper()` ("ß" becomes "SS").
        if first.properties.isLowercase {
            scalars.replaceSubrange(0..<1, with: Array(String(first).uppercased().unicodeScalars))
        }
        // `" ".join(text.split())`: runs of Python white space become one space; the ends go.
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in scalars {
            if CosyVoiceTextRules.isPythonSpace(scalar) {
                if !word.isEmpty { words.append(String(word)); word = String.UnicodeScalarView() }
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        var cleaned = words.joined(separator: " ")
        for (target, replacement) in replacements {
            cleaned = CosyVoiceTextRules.replace(cleaned, target, with: replacement)
        }
        var out = Array(cleaned.unicodeScalars)
        while out.last == " " { out.removeLast() }
        if let last = out.last, endings.contains(last) {
            return CosyVoiceTextRules.string(out[...])
        }
        return CosyVoiceTextRules.string(out[...]) + "."
    }
}
