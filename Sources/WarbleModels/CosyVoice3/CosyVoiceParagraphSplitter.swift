import Foundation
import WarbleText

/// Splits normalised text into the pieces CosyVoice speaks one at a time, as the model authors'
/// `split_paragraph` does: sentences end at `.?!;:` (Chinese adds `。？！；：、`), a closing quote
/// after the mark stays with its sentence, sentences gather into pieces until one more would pass
/// `maxLength` while the piece already holds more than `minLength`, and a last piece shorter than
/// `mergeLength` joins the one before. Chinese counts characters; other text counts tokens.
struct CosyVoiceParagraphSplitter: Sendable {
    var maxLength = 80
    var minLength = 60
    var mergeLength = 20
    /// The length of a piece in the model's tokens (used for text that is not Chinese).
    let tokenCount: @Sendable (String) -> Int

    static let chineseMarks: Set<Unicode.Scalar> = ["。", "？", "！", "；", "：", "、", ".", "?", "!", ";"]
    static let otherMarks: Set<Unicode.Scalar> = [".", "?", "!", ";", ":"]
    static let closingQuotes: Set<Unicode.Scalar> = ["\"", "\u{201D}"]

    /// The pieces of `text`, which must not be empty.
    func split(_ text: String, chinese: Bool) -> [String] {
        let marks = chinese ? Self.chineseMarks : Self.otherMarks
        var scalars = Array(text.unicodeScalars)
        guard let lastScalar = scalars.last else { return [] }
        if !marks.contains(lastScalar) { scalars.append(chinese ? "。" : ".") }

        var sentences: [String] = []
        var start = 0
        var i = 0
        while i < scalars.count {
            defer { i += 1 }
            guard marks.contains(scalars[i]) else { continue }
            if start < i { sentences.append(CosyVoiceTextRules.string(scalars[start...i])) }
            if i + 1 < scalars.count, Self.closingQuotes.contains(scalars[i + 1]) {
                // As the reference: the quote joins the latest sentence, even one ended by an earlier mark.
                let quote = String(scalars[i + 1])
                if let last = sentences.popLast() { sentences.append(last + quote) } else { sentences.append(quote) }
                start = i + 2
            } else {
                start = i + 1
            }
        }

        func length(_ piece: String) -> Int { chinese ? piece.unicodeScalars.count : tokenCount(piece) }
        var pieces: [String] = []
        var current = ""
        for sentence in sentences {
            if length(current + sentence) > maxLength, length(current) > minLength {
                pieces.append(current)
                current = ""
            }
            current += sentence
        }
        if !current.isEmpty {
            if length(current) < mergeLength, let last = pieces.popLast() {
                pieces.append(last + current)
            } else {
                pieces.append(current)
            }
        }
        return pieces
    }
}
