/// Keeps overlong runs without whitespace away from the rewrite rules, whose patterns may look at a
/// whole word: with every word at most `longRun` characters long, each rule is linear in the text.
enum EnglishLongRuns {
    enum Piece {
        case text(Substring)
        case longRun(Substring)
    }

    /// `text` cut into ordinary text and runs of more than `limit` non-whitespace characters, in order.
    static func pieces(of text: String, longerThan limit: Int) -> [Piece] {
        var pieces: [Piece] = []
        var pieceStart = text.startIndex
        var runStart = text.startIndex
        var runLength = 0
        func closeRun(at end: String.Index) {
            if runLength > limit {
                if pieceStart < runStart { pieces.append(.text(text[pieceStart..<runStart])) }
                pieces.append(.longRun(text[runStart..<end]))
                pieceStart = end
            }
            runLength = 0
        }
        var i = text.startIndex
        while i < text.endIndex {
            if text[i].isWhitespace {
                closeRun(at: i)
            } else {
                if runLength == 0 { runStart = i }
                runLength += 1
            }
            i = text.index(after: i)
        }
        closeRun(at: text.endIndex)
        if pieceStart < text.endIndex { pieces.append(.text(text[pieceStart...])) }
        return pieces
    }

    /// An overlong run: digit runs read one digit at a time in groups of three, anything else as written.
    static func read(_ run: Substring) -> String {
        var out = ""
        var digits: [Character] = []
        func flushDigits() {
            guard !digits.isEmpty else { return }
            let groups = stride(from: 0, to: digits.count, by: 3).map { EnglishNumbers.digits(String(digits[$0..<min($0 + 3, digits.count)])) }
            if let last = out.last, last.isLetter { out += " " }
            out += groups.joined(separator: ", ")
            digits.removeAll(keepingCapacity: true)
        }
        for c in run {
            if c.isASCIIDigitCharacter {
                digits.append(c)
            } else {
                let afterDigits = !digits.isEmpty
                flushDigits()
                if afterDigits, c.isLetter { out += " " }
                out.append(c)
            }
        }
        flushDigits()
        return out
    }
}
