/// Finds the matches of a pre-tokenizer pattern in a range of UTF-8 bytes.
protocol PatternMatcher: Sendable {
    /// Appends the byte ranges (absolute, in order, non-overlapping) the pattern matches in `range`.
    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>])
}

/// Helpers shared by the hand-written matchers.
extension PatternMatcher {
    @inline(__always)
    func scalarClass(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (ScalarClass, value: UInt32, length: Int) {
        let (value, length) = decodeScalar(bytes, index)
        return (ScalarClass(value), value, length)
    }

    /// End of the run of scalars of class `cls` starting at `index`.
    @inline(__always)
    func runEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, _ end: Int, _ cls: ScalarClass) -> Int {
        var i = index
        while i < end {
            let (c, _, length) = scalarClass(bytes, i)
            if c != cls { break }
            i += length
        }
        return i
    }

    /// `\s+(?!\S)|\s+` at `start` (a whitespace scalar): the whole run when it reaches the end of the input,
    /// otherwise the run without its last scalar (unless that leaves nothing).
    @inline(__always)
    func whitespaceMatch(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start
        var lastStart = start
        while i < end {
            let (c, _, length) = scalarClass(bytes, i)
            if c != .whitespace { break }
            lastStart = i
            i += length
        }
        if i == end || lastStart == start { return i }
        return lastStart
    }
}

/// True when the contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`) starts at `index` (the apostrophe);
/// returns its byte length or 0.
@inline(__always)
func contractionLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int, caseInsensitive: Bool) -> Int {
    guard index + 1 < end else { return 0 }
    @inline(__always) func fold(_ b: UInt8) -> UInt8 {
        caseInsensitive && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
    let b1 = fold(bytes[index + 1])
    switch b1 {
    case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "m"), UInt8(ascii: "d"):
        return 2
    case 0xC5 where caseInsensitive && index + 2 < end && bytes[index + 2] == 0xBF:
        return 3  // U+017F LATIN SMALL LETTER LONG S case-folds to "s"
    default:
        break
    }
    guard index + 2 < end else { return 0 }
    let b2 = fold(bytes[index + 2])
    switch (b1, b2) {
    case (UInt8(ascii: "r"), UInt8(ascii: "e")), (UInt8(ascii: "v"), UInt8(ascii: "e")),
        (UInt8(ascii: "l"), UInt8(ascii: "l")):
        return 3
    default:
        return 0
    }
}
