import Foundation

/// The words Warble says for CHAR and KEY messages and for spelled text (English names; the voices
/// installed here speak English).
public enum SpokenText {
    /// A single character, as a screen reader wants it read: letters and digits as themselves,
    /// punctuation and symbols by name ("comma", "at"), "capital" before capitals when asked.
    public static func character(_ text: String, capitals: SpeechSettings.CapitalLetters = .none) -> String {
        guard text.count == 1, let character = text.first else { return text }
        if character == " " { return "space" }
        if let name = symbolNames[character] { return name }
        if character.isLetter {
            let spoken = letterName(character)
            return capitals == .spell && character.isUppercase ? "capital \(spoken)" : spoken
        }
        if character.isNewline { return "new line" }
        return String(character)
    }

    /// A key name from SSIP KEY ("a", "shift_a", "control", "kp-enter", "double-quote", "space") as words.
    public static func key(_ name: String, capitals: SpeechSettings.CapitalLetters = .none) -> String {
        if name.count == 1 { return character(name, capitals: capitals) }
        if let spoken = keyNames[name] { return spoken }
        // Modifier combinations: "shift_a", "control_alt_delete".
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        if parts.count > 1, parts.allSatisfy({ !$0.isEmpty }) {
            return parts.map { key(String($0), capitals: capitals) }.joined(separator: " ")
        }
        if name.hasPrefix("kp-") { return "keypad " + key(String(name.dropFirst(3)), capitals: capitals) }
        return name.replacingOccurrences(of: "-", with: " ")
    }

    /// `text` letter by letter (spelling mode), each character by `character(_:)`, separated by pauses.
    public static func spelled(_ text: String, capitals: SpeechSettings.CapitalLetters = .none) -> String {
        text.filter { !$0.isWhitespace }.map { character(String($0), capitals: capitals) }.joined(separator: ", ")
    }

    /// A lone letter as its capital, which the phonemizer reads as the letter's name (a lower-case
    /// "a" would be read as the article), like WarbleText's spelling of `say-as characters`.
    static func letterName(_ letter: Character) -> String {
        letter.uppercased()
    }

    static let symbolNames: [Character: String] = [
        ".": "dot", ",": "comma", ";": "semicolon", ":": "colon", "!": "exclamation mark",
        "?": "question mark", "'": "apostrophe", "\"": "quote", "(": "left paren", ")": "right paren",
        "[": "left bracket", "]": "right bracket", "{": "left brace", "}": "right brace",
        "<": "less than", ">": "greater than", "/": "slash", "\\": "backslash", "|": "bar",
        "-": "dash", "_": "underscore", "+": "plus", "=": "equals", "*": "star", "&": "and",
        "%": "percent", "$": "dollar", "#": "hash", "@": "at", "^": "caret", "~": "tilde",
        "`": "grave", "\t": "tab", "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four",
        "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine",
    ]

    static let keyNames: [String: String] = [
        "space": "space", "underscore": "underscore", "double-quote": "double quote",
        "alt": "alt", "control": "control", "hyper": "hyper", "meta": "meta", "shift": "shift",
        "super": "super", "backspace": "backspace", "break": "break", "delete": "delete",
        "down": "down", "end": "end", "enter": "enter", "escape": "escape", "home": "home",
        "insert": "insert", "left": "left", "menu": "menu", "next": "page down", "pause": "pause",
        "prior": "page up", "print": "print", "right": "right", "scroll-lock": "scroll lock",
        "tab": "tab", "up": "up", "window": "windows", "num-lock": "num lock", "caps-lock": "caps lock",
        "kp-*": "keypad star", "kp-+": "keypad plus", "kp--": "keypad minus", "kp-.": "keypad dot",
        "kp-/": "keypad slash", "kp-enter": "keypad enter",
    ]
}
