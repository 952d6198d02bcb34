import WarbleText

/// IPA from espeak-ng (GPL-3; this target is kept apart so the core library never links it).
///
/// The phonemes are what the `espeak-ng --ipa` command prints (its phoneme trace, not
/// `espeak_TextToPhonemes`, which differs for some voices). espeak-ng drops punctuation and clause
/// boundaries, so `phonemize` splits the text at punctuation itself, phonemizes the pieces and puts the
/// punctuation back. Calls are serialised process-wide: espeak-ng is not thread-safe.
public struct EspeakPhonemizer: Phonemizer {
    public init() {}

    public func phonemize(_ text: String, language: String) throws -> String {
        let pieces = PunctuationSplitter.split(text)
        return try EspeakEngine.shared.withVoice(language) {
            var out = ""
            for piece in pieces {
                switch piece {
                case .text(let words):
                    let lines = try EspeakEngine.shared.traceIPA(words).split(separator: "\n")
                    let phonemes = lines.map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
                    out += phonemes.joined(separator: " ")
                case .punctuation(let marks):
                    out += marks
                case .space:
                    if !out.isEmpty, out.last != " " { out += " " }
                }
            }
            return out.trimmingSpaces
        }
    }

    /// What the `espeak-ng -q --ipa -v VOICE` command prints: one line per clause, no punctuation.
    public func commandLineIPA(_ text: String, voice: String) throws -> String {
        try EspeakEngine.shared.withVoice(voice) { try EspeakEngine.shared.traceIPA(text) }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
