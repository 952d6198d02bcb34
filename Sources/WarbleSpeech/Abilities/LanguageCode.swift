/// Language codes compared by their primary subtag, case-insensitively ("pt" = "pt-BR" = "pt_br").
public enum LanguageCode {
    public static func primary(_ code: String) -> String {
        String(code.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
    }

    public static func same(_ a: String, _ b: String) -> Bool { primary(a) == primary(b) }

    /// Whether sentences of the language are joined by a space (not Chinese, Japanese, Thai, Lao,
    /// Khmer or Burmese).
    public static func usesSpaces(_ code: String) -> Bool { !["zh", "ja", "th", "lo", "km", "my", "yue"].contains(primary(code)) }
}
