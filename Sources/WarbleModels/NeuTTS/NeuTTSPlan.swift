import Foundation
import WarbleSpeech

/// How a long text is split so that each part fits NeuTTS's context (the authors send the whole text
/// and stop where the 2,048 tokens end; tools/neutts/reference.py `plan_chunks` states Warble's rule):
/// split at sentence ends (whitespace after . ! ?), then pack whole sentences in order while the
/// part's prompt and the codes it is expected to need fit, the codes estimated as 1.5 × the part's
/// phoneme tokens × the reference's codes per phoneme token. A sentence that alone does not fit is a
/// part of its own (its generation then stops where the context ends).
struct NeuTTSPlan {
    static let factor = 1.5

    struct Part: Equatable {
        var text: String
        var phonemes: String
    }

    let vocabulary: NeuTTSVocabulary
    let referencePhonemes: String
    let referenceCodes: [Int]
    let context: Int
    let phonemes: (String) throws -> String
    private let referenceTokens: Int

    init(vocabulary: NeuTTSVocabulary, referencePhonemes: String, referenceCodes: [Int], context: Int,
         phonemes: @escaping (String) throws -> String) throws {
        self.vocabulary = vocabulary
        self.referencePhonemes = referencePhonemes
        self.referenceCodes = referenceCodes
        self.context = context
        self.phonemes = phonemes
        referenceTokens = max(1, vocabulary.tokenizer.encode(referencePhonemes, addSpecialTokens: false).count)
    }

    /// The sentences of `text`: split after . ! ? followed by whitespace.
    static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character?
        var pendingSpace = false
        for character in text.trimmingCharacters(in: .whitespacesAndNewlines) {
            if character.isWhitespace {
                if let previous, ".!?".contains(previous) { pendingSpace = true; continue }
                if pendingSpace { continue }
            } else if pendingSpace {
                sentences.append(current)
                current = ""
                pendingSpace = false
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }

    /// Whether `phonemes` fits with its expected codes; the count of its phoneme tokens too.
    func fits(_ spoken: String) throws -> Bool {
        let tokens = vocabulary.tokenizer.encode(spoken, addSpecialTokens: false).count
        let expected = Int((Self.factor * Double(tokens) * Double(referenceCodes.count) / Double(referenceTokens)).rounded(.up))
        let prompt = try vocabulary.prompt(referencePhonemes: referencePhonemes, phonemes: spoken, referenceCodes: referenceCodes)
        return prompt.count + expected <= context
    }

    func parts(_ text: String) throws -> [Part] {
        var parts: [Part] = []
        for sentence in Self.sentences(text) {
            if let last = parts.last {
                let joined = last.text + " " + sentence
                let spoken = try phonemes(joined)
                if try fits(spoken) {
                    parts[parts.count - 1] = Part(text: joined, phonemes: spoken)
                    continue
                }
            }
            parts.append(Part(text: sentence, phonemes: try phonemes(sentence)))
        }
        return parts.filter { !$0.phonemes.isEmpty }
    }
}
