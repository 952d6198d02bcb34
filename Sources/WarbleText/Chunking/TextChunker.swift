/// Cuts text into chunks a model can take: whole sentences where they fit the limit, a long sentence at
/// clause punctuation, then at spaces (or between CJK characters), never inside a word; pieces shorter than
/// `minimumLength` characters merge with a neighbour when the result still fits.
public struct TextChunker: Sendable {
    /// The model's limit.
    public enum Limit: Sendable {
        /// At most this many characters (grapheme clusters).
        case characters(Int)
        /// At most `maximum` as counted by `measure` (tokens, phonemes…).
        case measured(maximum: Int, measure: @Sendable (Substring) -> Int)

        /// The largest chunk, in characters or in the measure's units.
        public var maximum: Int {
            switch self {
            case .characters(let n): n
            case .measured(let n, _): n
            }
        }
    }

    public var limit: Limit
    public var minimumLength: Int
    public var splitter: SentenceSplitter

    public init(limit: Limit, minimumLength: Int = 12, splitter: SentenceSplitter = SentenceSplitter()) {
        self.limit = limit
        self.minimumLength = minimumLength
        self.splitter = splitter
    }

    /// How many times the limit a single word may be before it is cut.
    public static let wordCutFactor = 3

    static let clauseMarks: Set<Character> = [",", ";", ":", "—", "–", "、", "，", "；", "：", "،", "؛"]

    /// The chunks, as slices of `text` (so their positions in it are known).
    /// A single word longer than the limit is a chunk of its own, over the limit; one longer than
    /// `wordCutFactor` times the limit is no word (a run of digits or letters pasted in) and is cut into
    /// pieces of the limit, so that no chunk is ever larger than that.
    public func chunks(_ text: String) throws -> [Substring] {
        guard maximum > 0 else { throw TextError(.chunking, "chunk limit is \(maximum); accepted: a positive number") }
        var pieces: [Substring] = []
        for sentence in splitter.split(text) {
            pieces += fit(sentence, level: 0)
        }
        return mergeShort(pieces, in: text)
    }

    private func measure(_ piece: Substring) -> Int {
        switch limit {
        case .characters: return piece.count
        case .measured(_, let measure): return measure(piece)
        }
    }

    private var maximum: Int { limit.maximum }

    /// Splits `piece` at the boundaries of `level` (0 clauses, 1 spaces, 2 CJK characters, 3 every
    /// `maximum` characters) and packs the parts.
    private func fit(_ piece: Substring, level: Int) -> [Substring] {
        if measure(piece) <= maximum || level > 3 { return [piece] }
        if level == 3, measure(piece) <= maximum * Self.wordCutFactor { return [piece] }
        let parts = split(piece, level: level)
        if parts.count <= 1 { return fit(piece, level: level + 1) }
        var out: [Substring] = []
        var current: Substring?
        for part in parts {
            if let open = current {
                let joined = piece[open.startIndex..<part.endIndex]
                if measure(joined) <= maximum {
                    current = joined
                    continue
                }
                out.append(trim(open))
                current = nil
            }
            if measure(part) <= maximum {
                current = part
            } else {
                out += fit(trim(part), level: level + 1)
            }
        }
        if let current { out.append(trim(current)) }
        return out.filter { !$0.isEmpty }
    }

    /// Boundaries: after clause marks followed by space (CJK marks stand alone), at spaces, between CJK characters.
    private func split(_ piece: Substring, level: Int) -> [Substring] {
        var parts: [Substring] = []
        var start = piece.startIndex
        var i = piece.startIndex
        while i < piece.endIndex {
            let c = piece[i]
            let next = piece.index(after: i)
            var cut: String.Index?
            switch level {
            case 0:
                if Self.clauseMarks.contains(c), next == piece.endIndex || piece[next].isWhitespace || Self.isWide(c) { cut = next }
            case 1:
                if c.isWhitespace, i > start { cut = i }
            case 2:
                if Self.isCJK(c), next < piece.endIndex { cut = next }
            default:
                if piece.distance(from: start, to: next) >= maximum, next < piece.endIndex { cut = next }
            }
            if let cut, cut > start {
                parts.append(piece[start..<cut])
                start = cut
            }
            i = next
        }
        if start < piece.endIndex { parts.append(piece[start...]) }
        return parts
    }

    private static func isWide(_ c: Character) -> Bool { "、，；：".contains(c) }

    private static func isCJK(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return (0x3040...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x20000...0x2FFFF).contains(v) || (0x3000...0x303F).contains(v)
    }

    private func trim(_ piece: Substring) -> Substring {
        var start = piece.startIndex
        var end = piece.endIndex
        while start < end, piece[start].isWhitespace { start = piece.index(after: start) }
        while end > start, piece[piece.index(before: end)].isWhitespace { end = piece.index(before: end) }
        return piece[start..<end]
    }

    /// Merges pieces shorter than `minimumLength` into the next (or else the previous) piece when it fits.
    private func mergeShort(_ pieces: [Substring], in text: String) -> [Substring] {
        var out = pieces
        var k = 0
        while k < out.count {
            guard out[k].count < minimumLength, out.count > 1 else {
                k += 1
                continue
            }
            if k + 1 < out.count {
                let joined = text[out[k].startIndex..<out[k + 1].endIndex]
                if measure(joined) <= maximum {
                    out[k] = joined
                    out.remove(at: k + 1)
                    continue
                }
            }
            if k > 0 {
                let joined = text[out[k - 1].startIndex..<out[k].endIndex]
                if measure(joined) <= maximum {
                    out[k - 1] = joined
                    out.remove(at: k)
                    continue
                }
            }
            k += 1
        }
        return out
    }
}
