/// Turns text into phonemes (IPA) for a language. Model pipelines take one from outside, so the core
/// library builds without any particular backend; `WarblePhonemes.EspeakPhonemizer` is the espeak-ng one.
public protocol Phonemizer: Sendable {
    /// IPA for `text`, with stress marks, keeping punctuation and clause boundaries.
    /// `language` is a BCP 47 code or a backend voice name ("en-us", "de", "cmn").
    /// Throws `TextError` (kind `.phonemizer`) when the language is not available.
    func phonemize(_ text: String, language: String) throws -> String

    /// IPA laid out as `convention` says (a model must be fed the phonemes it was trained on).
    /// The default serves `.warble` with `phonemize(_:language:)` and refuses any other convention.
    func phonemize(_ text: String, language: String, convention: PhonemeConvention) throws -> String
}

/// How a phoneme string is laid out: the same espeak-ng phonemes, but punctuation, clause joins and
/// language-switch flags differ from one front end to another.
public enum PhonemeConvention: String, Sendable, Equatable, CaseIterable {
    /// Warble's own (Piper, Kokoro): punctuation put back where it stood, language-switch flags such as
    /// `(en)` kept.
    case warble
    /// What the Python `phonemizer` package (3.4) returns from its espeak backend with
    /// `preserve_punctuation=True, with_stress=True, language_switch="remove-flags"`: its first output
    /// line, marks re-inserted by its own rules, flags removed.
    case phonemizerEspeak
}

extension Phonemizer {
    public func phonemize(_ text: String, language: String, convention: PhonemeConvention) throws -> String {
        guard convention == .warble else {
            throw TextError(.phonemizer, "this phonemizer (\(type(of: self))) cannot lay phonemes out as \(convention.rawValue); use espeak-ng's (WarblePhonemes)")
        }
        return try phonemize(text, language: language)
    }
}
