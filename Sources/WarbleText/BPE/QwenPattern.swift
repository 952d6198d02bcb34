/// The pattern of Qwen2 (`maxDigits` 1) and of Llama 3 / cl100k (`maxDigits` 3), hand-compiled:
/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,n}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
struct QwenPattern: PatternMatcher {
    static let qwen2Source =
        #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
    static let llama3Source =
        #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#

    let maxDigits: Int

    @inline(__always)
    private func isNewline(_ value: UInt32) -> Bool { value == 0x0A || value == 0x0D }

    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>]) {
        let end = range.upperBound
        var i = range.lowerBound
        while i < end {
            let start = i
            if bytes[i] == UInt8(ascii: "'") {
                let length = contractionLength(bytes, i, end, caseInsensitive: true)
                if length > 0 {
                    out.append(start..<(start + length))
                    i = start + length
                    continue
                }
            }
            let (cls, value, length) = scalarClass(bytes, i)
            let next = i + length < end ? scalarClass(bytes, i + length) : nil
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if cls == .letter {
                i = runEnd(bytes, from: i + length, end, .letter)
                out.append(start..<i)
                continue
            }
            if cls != .number, !isNewline(value), let next, next.0 == .letter {
                i = runEnd(bytes, from: i + length + next.length, end, .letter)
                out.append(start..<i)
                continue
            }
            // \p{N}{1,maxDigits}
            if cls == .number {
                i += length
                var count = 1
                while count < maxDigits, i < end {
                    let (c, _, l) = scalarClass(bytes, i)
                    if c != .number { break }
                    i += l
                    count += 1
                }
                out.append(start..<i)
                continue
            }
            // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
            var otherStart: Int?
            if cls == .other {
                otherStart = i
            } else if value == 0x20, let next, next.0 == .other {
                otherStart = i + length
            }
            if let otherStart {
                i = runEnd(bytes, from: otherStart, end, .other)
                while i < end, bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
                out.append(start..<i)
                continue
            }
            // whitespace: `\s*[\r\n]+`, then `\s+(?!\S)|\s+`
            var j = i
            var lastNewlineEnd: Int?
            while j < end {
                let (c, v, l) = scalarClass(bytes, j)
                if c != .whitespace { break }
                j += l
                if isNewline(v) { lastNewlineEnd = j }
            }
            if let lastNewlineEnd {
                i = lastNewlineEnd
            } else {
                i = whitespaceMatch(bytes, start, end)
            }
            out.append(start..<i)
        }
    }
}
