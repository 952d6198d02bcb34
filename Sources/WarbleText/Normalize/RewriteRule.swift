/// A pattern and what to say instead of each match: the building block of the table-driven normalizers.
struct RewriteRule: @unchecked Sendable {
    typealias Match = Regex<AnyRegexOutput>.Match
    // `Regex<AnyRegexOutput>` is an immutable compiled program, only read after `init`.
    let regex: Regex<AnyRegexOutput>
    /// Returns the replacement, or nil to leave the match as written. `text` is the whole input.
    let rewrite: @Sendable (_ match: Match, _ text: String) -> String?

    /// `pattern` is a constant of this module; every rule is compiled by the normalizer tests.
    init(_ pattern: String, _ rewrite: @escaping @Sendable (_ match: Match, _ text: String) -> String?) {
        do {
            regex = try Regex(pattern)
        } catch {
            preconditionFailure("normalizer pattern \(pattern) does not compile: \(error)")
        }
        self.rewrite = rewrite
    }

    func apply(_ text: String) -> String {
        var out = ""
        var last = text.startIndex
        for match in text.matches(of: regex) where !match.range.isEmpty {
            guard let replacement = rewrite(match, text) else { continue }
            out += text[last..<match.range.lowerBound]
            out += replacement
            last = match.range.upperBound
        }
        if last == text.startIndex { return text }
        out += text[last...]
        return out
    }
}

extension Regex<AnyRegexOutput>.Match {
    /// Capture group `index` as a string, nil when it did not take part in the match.
    subscript(group index: Int) -> String? {
        guard index < output.count, let substring = output[index].substring else { return nil }
        return String(substring)
    }
}
