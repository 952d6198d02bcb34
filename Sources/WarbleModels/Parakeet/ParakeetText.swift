/// Text and words from timed SentencePiece tokens as sherpa-onnx writes a NeMo transducer's result: the pieces
/// joined with "▁" as a space, a space dropped between two CJK characters or before punctuation, then one leading
/// space dropped.
enum ParakeetText {
    static func text(_ tokens: [Int], table: TokenTable) -> String {
        var scalars = Array(tokens.map(table.piece).joined().unicodeScalars)
        if scalars.count >= 2 {
            var kept: [Unicode.Scalar] = [scalars[0]]
            for i in 1..<scalars.count {
                if scalars[i] == " ", i + 1 < scalars.count,
                   (isCJK(scalars[i - 1]) && isCJK(scalars[i + 1])) || isPunctuation(scalars[i + 1]) {
                    continue
                }
                kept.append(scalars[i])
            }
            scalars = kept
        }
        if scalars.first == " " { scalars.removeFirst() }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Words: a token whose piece starts with "▁" begins one; each runs from its first token's frame to the end of its
    /// last token (frame + duration, at least one frame past its start).
    static func words(_ search: ParakeetSearch, table: TokenTable, frameSeconds: Double,
                      offset: Double) -> [(word: String, start: Double, end: Double)] {
        var starts: [Int] = []
        for (i, id) in search.tokens.enumerated() where i == 0 || table[id].hasPrefix("▁") { starts.append(i) }
        return starts.enumerated().map { index, first in
            let last = (index + 1 < starts.count ? starts[index + 1] : search.tokens.count) - 1
            let start = Double(search.frames[first]) * frameSeconds
            let end = max(Double(search.frames[last] + search.durations[last]) * frameSeconds, start + frameSeconds)
            return (search.tokens[first...last].map(table.piece).joined(), offset + start, offset + end)
        }
    }

    /// sherpa-onnx's IsCJK ranges.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0xA4CF, 0xA840...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF65...0xFFDC,
             0x20000...0x2FFFF: return true
        default: return false
        }
    }

    /// sherpa-onnx's IsPunct: ASCII punctuation, CJK symbols and punctuation, fullwidth punctuation.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0x3000...0x303F, 0xFF01...0xFF0F, 0xFF1A...0xFF20,
             0xFF3B...0xFF40, 0xFF5B...0xFF65: return true
        default: return false
        }
    }
}
