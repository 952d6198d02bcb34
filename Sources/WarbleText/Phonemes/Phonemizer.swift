/// Turns text into phonemes (IPA) for a language. Model pipelines take one from outside, so the core
/// library builds without any particular backend; `WarblePhonemes.EspeakPhonemizer` is the espeak-ng one.
public protocol Phonemizer: Sendable {
    /// IPA for `text`, with stress marks, keeping punctuation and clause boundaries.
    /// `language` is a BCP 47 code or a backend voice name ("en-us", "de", "cmn").
    /// Throws `TextError` (kind `.phonemizer`) when the language is not available.
    func phonemize(_ text: String, language: String) throws -> String
}
