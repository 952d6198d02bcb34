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

    public func phonemize(_ text: String, language: String, convention: PhonemeConvention) throws -> String {
        switch convention {
        case .warble: try phonemize(text, language: language)
        case .phonemizerEspeak: try phonemizerPackageLines(text, language: language).first ?? ""
        }
    }

    /// The list the Python `phonemizer` package's `EspeakBackend(language, preserve_punctuation=True,
    /// with_stress=True, language_switch="remove-flags").phonemize([text])` returns, with the same espeak-ng:
    /// usually one line; more when its mark placement runs out of chunks (a "." right after digits, such
    /// as "version 10.0.3", cuts the text there), and none for empty text.
    public func phonemizerPackageLines(_ text: String, language: String) throws -> [String] {
        let (chunks, marks) = PhonemizerPunctuation.preserve(Array(text.unicodeScalars))
        let phonemized = try EspeakEngine.shared.withLanguageVoice(language) {
            chunks.map { chunk in
                var string = ""
                string.unicodeScalars.append(contentsOf: chunk)
                let clauses = EspeakEngine.shared.clauses(string, phonemeMode: PhonemizerEspeakLine.phonemeMode)
                return PhonemizerEspeakLine.postprocess(PhonemizerEspeakLine.joinClauses(clauses))
            }
        }
        return PhonemizerPunctuation.restore(phonemized, marks: marks).map { line in
            var string = ""
            string.unicodeScalars.append(contentsOf: line)
            return string
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
