/// Words from timed SentencePiece tokens: a token whose piece starts with "▁" begins a word, and so does each
/// token of CJK, kana or hangul (scripts written without spaces); a word runs until the next one starts
/// (the last one, one frame past its last token).
enum SenseVoiceWords {
    static func words(tokens: [Int], times: [Double], table: TokenTable, frameSeconds: Double,
                      offset: Double) -> [(word: String, start: Double, end: Double)] {
        var starts: [Int] = []
        for (i, id) in tokens.enumerated() {
            let symbol = table[id]
            if i == 0 || symbol.hasPrefix("▁") || symbol.unicodeScalars.contains(where: isUnspaced)
                || table[tokens[i - 1]].unicodeScalars.contains(where: isUnspaced) {
                starts.append(i)
            }
        }
        return starts.enumerated().map { index, first in
            let last = index + 1 < starts.count ? starts[index + 1] : tokens.count
            let end = last < tokens.count ? times[last] : times[last - 1] + frameSeconds
            return (tokens[first..<last].map(table.piece).joined(), offset + times[first], offset + end)
        }
    }

    /// Han, kana, hangul, and CJK punctuation.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0x1100...0x11FF, 0xF900...0xFAFF,
             0xFF00...0xFFEF, 0x20000...0x2FA1F: return true
        default: return false
        }
    }
}
