/// Any other `Split` pattern, run with Swift's regex engine (slower than the hand-compiled patterns).
struct RegexPattern: PatternMatcher, @unchecked Sendable {
    // `Regex<AnyRegexOutput>` is an immutable compiled program; it is only read after `init`.
    private let regex: Regex<AnyRegexOutput>

    init(_ pattern: String) throws {
        do {
            // Scalar semantics as in Oniguruma: "\r\n" is two characters, not one grapheme.
            regex = try Regex(pattern).matchingSemantics(.unicodeScalar)
        } catch {
            throw TextError(.tokenizerFile, "pre-tokenizer pattern \(pattern) is not a valid regex: \(error)")
        }
    }

    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>]) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        for match in text.matches(of: regex) where !match.range.isEmpty {
            let lower = text.utf8.distance(from: text.startIndex, to: match.range.lowerBound)
            let upper = text.utf8.distance(from: text.startIndex, to: match.range.upperBound)
            out.append((range.lowerBound + lower)..<(range.lowerBound + upper))
        }
    }
}

/// A pattern that matches single literal strings (a `Split` with `{"String": ...}`).
struct LiteralPattern: PatternMatcher {
    let literal: [UInt8]

    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>]) {
        guard !literal.isEmpty else { return }
        var i = range.lowerBound
        while i + literal.count <= range.upperBound {
            var equal = true
            for k in 0..<literal.count where bytes[i + k] != literal[k] {
                equal = false
                break
            }
            if equal {
                out.append(i..<(i + literal.count))
                i += literal.count
            } else {
                i += 1
            }
        }
    }
}

/// `Digits`: runs of `\p{N}` (or each one alone).
struct DigitsPattern: PatternMatcher {
    let individual: Bool

    func matches(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [Range<Int>]) {
        var i = range.lowerBound
        while i < range.upperBound {
            let (cls, _, length) = scalarClass(bytes, i)
            if cls == .number {
                let end = individual ? i + length : runEnd(bytes, from: i + length, range.upperBound, .number)
                out.append(i..<end)
                i = end
            } else {
                i += length
            }
        }
    }
}
