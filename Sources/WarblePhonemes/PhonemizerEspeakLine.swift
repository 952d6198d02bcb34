/// What the Python `phonemizer` package's espeak backend makes of one chunk of text (3.4,
/// `backend/espeak/espeak.py` `_postprocess_line` and `language_switch.py` `RemoveFlags`), for
/// `with_stress=True`, no tie, `strip=False` and the default separator (phones "", words " ").
enum PhonemizerEspeakLine {
    typealias Text = [Unicode.Scalar]

    /// `espeak_TextToPhonemes` in IPA with "_" between phonemes, the mode the package asks for.
    static let phonemeMode: Int32 = Int32(UInt8(ascii: "_")) << 8 | 0x02

    /// The clauses espeak-ng returned (empty ones skipped), joined by single spaces, as the package's
    /// wrapper does.
    static func joinClauses(_ clauses: [String]) -> Text {
        Array(clauses.filter { !$0.isEmpty }.joined(separator: " ").unicodeScalars)
    }

    static func postprocess(_ raw: Text) -> Text {
        var line = strip(raw)
        line = replacing(line, ["\n"], with: [" "])
        line = replacing(line, [" ", " "], with: [" "])
        line = collapsingUnderscores(line)
        line = replacing(line, ["_", " "], with: [" "])
        line = removingFlags(line)
        if line.isEmpty { return [] }
        var out: Text = []
        // Words are what `split(' ')` gives (empty ones too); the "_" phone separators become "".
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            out += strip(Array(word)).filter { $0 != "_" }
            out.append(" ")
        }
        return out
    }

    /// Python's `str.strip()`.
    static func strip(_ text: Text) -> Text {
        var start = 0, end = text.count
        while start < end, PhonemizerPunctuation.isSpace(text[start]) { start += 1 }
        while end > start, PhonemizerPunctuation.isSpace(text[end - 1]) { end -= 1 }
        return Array(text[start..<end])
    }

    /// Python's `str.replace(old, new)`: non-overlapping, left to right.
    static func replacing(_ text: Text, _ old: Text, with new: Text) -> Text {
        var out: Text = []
        var k = 0
        while k < text.count {
            if k + old.count <= text.count, text[k..<(k + old.count)].elementsEqual(old) {
                out += new
                k += old.count
            } else {
                out.append(text[k])
                k += 1
            }
        }
        return out
    }

    /// `re.sub(r'_+', '_', line)`.
    static func collapsingUnderscores(_ text: Text) -> Text {
        var out: Text = []
        for c in text where !(c == "_" && out.last == "_") { out.append(c) }
        return out
    }

    /// `re.sub(r'\(.+?\)', '', line)`: each "(" up to the nearest ")" with at least one character between
    /// (espeak-ng's language-switch flags such as "(en)"); "." does not cross a newline, and none is left.
    static func removingFlags(_ text: Text) -> Text {
        var out: Text = []
        var k = 0
        while k < text.count {
            if text[k] == "(", let close = (k + 2 < text.count ? text[(k + 2)...].firstIndex(of: ")") : nil),
               !text[(k + 1)..<close].contains("\n") {
                k = close + 1
            } else {
                out.append(text[k])
                k += 1
            }
        }
        return out
    }
}
