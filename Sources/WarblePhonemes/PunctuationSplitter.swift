/// Splits text into word runs and the punctuation espeak-ng would drop, so it can be put back.
enum PunctuationSplitter {
    enum Piece: Equatable {
        /// Words (with single spaces between them) to phonemize together.
        case text(String)
        case punctuation(String)
        case space
    }

    /// Marks kept in the phoneme output (the set Piper and Kokoro voices are trained with).
    static let kept: Set<Character> = [
        ",", ".", ";", ":", "!", "?", "¡", "¿", "…", "—", "–", "\"", "«", "»", "“", "”", "(", ")",
        "。", "，", "、", "！", "？", "；", "：", "「", "」",
    ]

    /// "." and "," inside numbers (3.14, 1,000) are not punctuation.
    static func split(_ text: String) -> [Piece] {
        let characters = Array(text)
        var out: [Piece] = []
        var word = ""
        func flushWord() {
            guard !word.isEmpty else { return }
            if out.count >= 2, out[out.count - 1] == .space, case .text(let previous) = out[out.count - 2] {
                out.removeLast(2)
                out.append(.text(previous + " " + word))
            } else {
                out.append(.text(word))
            }
            word = ""
        }
        for (k, c) in characters.enumerated() {
            if c.isWhitespace {
                flushWord()
                if !out.isEmpty, out.last != .space { out.append(.space) }
                continue
            }
            let inNumber = (c == "." || c == ",") && k > 0 && k + 1 < characters.count
                && characters[k - 1].isNumber && characters[k + 1].isNumber
            if kept.contains(c), !inNumber {
                flushWord()
                if case .punctuation(let run) = out.last {
                    out[out.count - 1] = .punctuation(run + String(c))
                } else {
                    out.append(.punctuation(String(c)))
                }
                continue
            }
            word.append(c)
        }
        flushWord()
        if out.last == .space { out.removeLast() }
        return out
    }
}
