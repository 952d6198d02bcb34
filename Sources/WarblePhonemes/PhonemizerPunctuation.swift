/// The Python `phonemizer` package's punctuation preservation (3.4, `phonemizer/punctuation.py`), step for
/// step, so that its quirks come out the same: the text is cut at runs of marks, the chunks are
/// phonemised, and the marks are put back by position rules. Everything works on Unicode scalars, as
/// Python strings do (Swift's `String` would compare canonically equivalent text as equal).
enum PhonemizerPunctuation {
    typealias Text = [Unicode.Scalar]

    /// Where a run of marks stood in its line: at the beginning, the end, inside, or the whole line.
    enum Position: Equatable { case begin, end, inside, alone }

    struct Mark: Equatable {
        let text: Text
        let position: Position
    }

    /// Its default marks; "," and "." are marks except between two ASCII digits (decimals stay whole).
    static let marks: Set<Unicode.Scalar> = Set(";:,.!?¡¿—…\"«»“”(){}[]".unicodeScalars)
    static let decimalSeparators: Set<Unicode.Scalar> = [",", "."]

    /// Python's `str.isspace` (what `\s` and `strip()` mean for a `str`).
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// Whether `line[k]` is a mark where it stands (the regex's look-behind and look-ahead on digits).
    static func isMark(_ line: Text, _ k: Int) -> Bool {
        let c = line[k]
        guard marks.contains(c) else { return false }
        guard decimalSeparators.contains(c) else { return true }
        let digitBefore = k > 0 && isASCIIDigit(line[k - 1])
        let digitAfter = k + 1 < line.count && isASCIIDigit(line[k + 1])
        return !(digitBefore && digitAfter)
    }

    /// The non-overlapping matches of `(\s*(?:mark)+\s*)+`, left to right: a match is a run of spaces and
    /// marks holding at least one mark and starting with spaces that lead to a mark.
    static func matches(_ line: Text) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var k = 0
        while k < line.count {
            guard isSpace(line[k]) || isMark(line, k) else {
                k += 1
                continue
            }
            var end = k
            var sawMark = false
            while end < line.count, isSpace(line[end]) || isMark(line, end) {
                if !isSpace(line[end]) { sawMark = true }
                end += 1
            }
            if sawMark {
                out.append(k..<end)
                k = end
            } else {
                k += 1
            }
        }
        return out
    }

    /// `Punctuation._preserve_line`: the chunks to phonemise (empty ones dropped, as `preserve` does) and
    /// the marks to put back.
    static func preserve(_ line: Text) -> (chunks: [Text], marks: [Mark]) {
        let found = matches(line)
        if found.isEmpty { return (line.isEmpty ? [] : [line], []) }
        if found.count == 1, found[0] == 0..<line.count { return ([], [Mark(text: line, position: .alone)]) }
        var marks: [Mark] = []
        for (n, range) in found.enumerated() {
            let text = Array(line[range])
            // As the original: the first match is "begin" when the line starts with its text, the last is
            // "end" when the line ends with it (text comparisons, not the match's place).
            var position = Position.inside
            if n == 0, line.starts(with: text) {
                position = .begin
            } else if n == found.count - 1, line.count >= text.count, Array(line.suffix(text.count)) == text {
                position = .end
            }
            marks.append(Mark(text: text, position: position))
        }
        // Each mark cuts the rest of the line at the first occurrence of its text (`str.split`).
        var chunks: [Text] = []
        var rest = line
        for mark in marks {
            if let at = firstIndex(of: mark.text, in: rest) {
                chunks.append(Array(rest[..<at]))
                rest = Array(rest[(at + mark.text.count)...])
            } else {
                chunks.append(rest)
                rest = []
            }
        }
        chunks.append(rest)
        return (chunks.filter { !$0.isEmpty }, marks)
    }

    static func firstIndex(of needle: Text, in haystack: Text) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty ? 0 : nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// `Punctuation.restore` for one input line (every mark's line index is 0), word separator " " and
    /// `strip=False`: the output lines.
    static func restore(_ phonemized: [Text], marks allMarks: [Mark]) -> [Text] {
        let space: Unicode.Scalar = " "
        var text = phonemized
        var marks = allMarks[...]
        var out: [Text] = []
        var position = 0
        while !text.isEmpty || !marks.isEmpty {
            if marks.isEmpty {
                for var line in text {
                    if line.last != space { line.append(space) }
                    out.append(line)
                }
                text = []
            } else if text.isEmpty {
                out.append(marks.flatMap(\.text))
                marks = []
            } else if position == 0 {
                let mark = marks.removeFirst()
                if text[0].last == space { text[0].removeLast() }
                switch mark.position {
                case .begin:
                    text[0] = mark.text + text[0]
                case .end:
                    out.append(text[0] + mark.text + (mark.text.last == space ? [] : [space]))
                    text.removeFirst()
                    position += 1
                case .alone:
                    out.append(mark.text + (mark.text.last == space ? [] : [space]))
                    position += 1
                case .inside:
                    if text.count == 1 {
                        text[0] += mark.text
                    } else {
                        let first = text.removeFirst()
                        text[0] = first + mark.text + text[0]
                    }
                }
            } else {
                // Marks belong to line 0 only: once past it, the chunks left come out as lines of their own.
                out.append(text.removeFirst())
                position += 1
            }
        }
        return out
    }
}
