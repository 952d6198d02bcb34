import Foundation
import WarbleSpeech
import WarbleText

/// NeuTTS's tokens, looked up by string in the repository's `tokenizer.json` (never by number: Nano's
/// speech tokens start at 128261, Air's elsewhere), and its prompt, built as the authors'
/// `_apply_chat_template` builds it (neuphonic/neutts `neutts/neutts.py`):
///
///     encode("user: Convert the text to speech:<|TEXT_REPLACE|>\nassistant:<|SPEECH_REPLACE|>")   (BOS and all)
///     with <|TEXT_REPLACE|> → <|TEXT_PROMPT_START|> encode("{ref phonemes} {phonemes}") <|TEXT_PROMPT_END|>
///     and <|SPEECH_REPLACE|> and what follows → <|SPEECH_GENERATION_START|> <|speech_c|> for each reference code c
struct NeuTTSVocabulary: Sendable {
    static let codeCount = 65_536
    static let chat = "user: Convert the text to speech:<|TEXT_REPLACE|>\nassistant:<|SPEECH_REPLACE|>"

    let tokenizer: BPETokenizer
    let textReplace: Int
    let speechReplace: Int
    let textStart: Int
    let textEnd: Int
    let speechStart: Int
    let speechEnd: Int
    /// The id of `<|speech_c|>` for each code c.
    let speechIDs: [Int]
    /// Code by id, for ids within `speechRange` (−1: not a speech token).
    private let codeByID: [Int32]
    private let speechRange: ClosedRange<Int>

    init(tokenizer: BPETokenizer) throws {
        self.tokenizer = tokenizer
        func id(_ token: String) throws -> Int {
            guard let id = tokenizer.id(for: token) else {
                throw ModelError(.badModel, "NeuTTS's tokenizer.json has no token \(token): this is not a NeuTTS backbone's tokenizer")
            }
            return id
        }
        textReplace = try id("<|TEXT_REPLACE|>")
        speechReplace = try id("<|SPEECH_REPLACE|>")
        textStart = try id("<|TEXT_PROMPT_START|>")
        textEnd = try id("<|TEXT_PROMPT_END|>")
        speechStart = try id("<|SPEECH_GENERATION_START|>")
        speechEnd = try id("<|SPEECH_GENERATION_END|>")
        speechIDs = try (0..<Self.codeCount).map { try id("<|speech_\($0)|>") }
        let low = speechIDs.min() ?? 0, high = speechIDs.max() ?? 0
        speechRange = low...high
        var byID = [Int32](repeating: -1, count: high - low + 1)
        for (code, id) in speechIDs.enumerated() { byID[id - low] = Int32(code) }
        codeByID = byID
    }

    /// The code a token id stands for, or nil when it is not a `<|speech_N|>` token.
    func code(of id: Int) -> Int? {
        guard speechRange.contains(id) else { return nil }
        let code = codeByID[id - speechRange.lowerBound]
        return code >= 0 ? Int(code) : nil
    }

    /// The prompt ids for `phonemes` spoken like the reference (its phonemes and codes).
    func prompt(referencePhonemes: String, phonemes: String, referenceCodes: [Int]) throws -> [Int] {
        let text = tokenizer.encode(referencePhonemes + " " + phonemes, addSpecialTokens: false)
        var ids = tokenizer.encode(Self.chat, addSpecialTokens: true)
        guard let t = ids.firstIndex(of: textReplace) else {
            throw ModelError(.badModel, "NeuTTS's tokenizer does not keep <|TEXT_REPLACE|> whole")
        }
        ids.replaceSubrange(t...t, with: [textStart] + text + [textEnd])
        guard let s = ids.firstIndex(of: speechReplace) else {
            throw ModelError(.badModel, "NeuTTS's tokenizer does not keep <|SPEECH_REPLACE|> whole")
        }
        ids.replaceSubrange(s..., with: [speechStart] + referenceCodes.map { speechIDs[$0] })
        return ids
    }
}

/// The authors' `_to_phones` (neutts `phonemizers.py`, `neutts.py`): the first line of `phonemizer`'s
/// espeak backend (preserve punctuation, with stress, language-switch flags removed), French without any
/// "-" (their `FrenchPhonemizer.clean`), whitespace collapsed to single spaces.
enum NeuTTSPhonemes {
    static func of(_ text: String, language: String, phonemizer: any Phonemizer) throws -> String {
        clean(try phonemizer.phonemize(text, language: language, convention: .phonemizerEspeak), language: language)
    }

    static func clean(_ phonemes: String, language: String) -> String {
        let text = language.lowercased().hasPrefix("fr") ? phonemes.replacingOccurrences(of: "-", with: "") : phonemes
        // Python's `str.split()`: runs of what `str.isspace` calls space, on scalars (not graphemes).
        var words: [String] = [], word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isPythonSpace(scalar) {
                if !word.isEmpty { words.append(String(word)) }
                word = String.UnicodeScalarView()
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words.joined(separator: " ")
    }

    static func isPythonSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
