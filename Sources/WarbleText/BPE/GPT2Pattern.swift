/// GPT-2's pre-tokenizer pattern, hand-compiled (also what `ByteLevel` with `use_regex` splits with):
/// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
struct GPT2Pattern: PatternMatcher {
    static let source = #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"#

    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>]) {
        let end = range.upperBound
        var i = range.lowerBound
        while i < end {
            let start = i
            let first = bytes[i]
            if first == UInt8(ascii: "'") {
                let length = contractionLength(bytes, i, end, caseInsensitive: false)
                if length > 0 {
                    out.append(start..<(start + length))
                    i = start + length
                    continue
                }
            }
            var (cls, _, length) = scalarClass(bytes, i)
            var j = i
            if first == 0x20, i + 1 < end {
                let (next, _, nextLength) = scalarClass(bytes, i + 1)
                if next != .whitespace {
                    j = i + 1
                    cls = next
                    length = nextLength
                }
            }
            switch cls {
            case .letter, .number, .other:
                i = runEnd(bytes, from: j + length, end, cls)
            case .whitespace:
                i = whitespaceMatch(bytes, start, end)
            }
            out.append(start..<i)
        }
    }
}
