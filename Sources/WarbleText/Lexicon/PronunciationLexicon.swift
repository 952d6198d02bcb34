import Foundation

/// A W3C Pronunciation Lexicon (PLS 1.0): graphemes with an alias (read instead) or IPA phonemes.
public struct PronunciationLexicon: Sendable {
    public enum Pronunciation: Sendable, Hashable {
        /// Text to read instead of the grapheme.
        case alias(String)
        /// IPA to use instead of the phonemizer's.
        case phonemes(String)
    }

    /// The lexicon's language (`xml:lang` of `<lexicon>`), if given.
    public let language: String?
    /// Grapheme to pronunciation; the first lexeme that lists a grapheme wins.
    public private(set) var entries: [String: Pronunciation]
    /// Graphemes by first character, longest first.
    private var index: [Character: [String]]

    public init(entries: [String: Pronunciation], language: String? = nil) {
        self.language = language
        self.entries = entries
        var index: [Character: [String]] = [:]
        for grapheme in entries.keys where !grapheme.isEmpty { index[grapheme.first!, default: []].append(grapheme) }
        for key in index.keys { index[key]!.sort { $0.count != $1.count ? $0.count > $1.count : $0 < $1 } }
        self.index = index
    }

    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TextError(.lexicon, "cannot read lexicon \(url.path): \(error.localizedDescription)")
        }
        try self.init(pls: String(decoding: data, as: UTF8.self))
    }

    /// Parses PLS XML. Each `<lexeme>` needs at least one `<grapheme>` and an `<alias>` or `<phoneme>`
    /// (the first, or the one with `prefer="true"`); phonemes in an alphabet other than IPA are rejected,
    /// and so are text that is not a `<lexicon>` at all and a lexicon with no entries.
    public init(pls: String) throws {
        let bytes = Array(pls.utf8)
        var scanner = XMLScanner(bytes, kind: .lexicon, document: "PLS lexicon")
        var entries: [String: Pronunciation] = [:]
        var language: String?
        var alphabet = "ipa"
        var stack: [String] = []
        var graphemes: [String] = []
        var pronunciation: Pronunciation?
        var preferred = false
        var text = ""
        var currentPrefer = false
        var lexemeStart = 0
        var phonemeAlphabet = "ipa"
        var sawRoot = false
        while let event = try scanner.next() {
            switch event {
            case .start(let rawName, let attributes, let selfClosing, let range):
                let name = rawName.split(separator: ":").last.map(String.init) ?? rawName
                func attribute(_ key: String) -> String? { attributes.first { $0.name == key }?.value }
                if stack.isEmpty {
                    sawRoot = true
                    guard name == "lexicon" else {
                        throw scanner.error("the root element is <\(rawName)>; accepted: <lexicon>", at: range.lowerBound)
                    }
                    language = attribute("xml:lang")
                    alphabet = attribute("alphabet") ?? "ipa"
                }
                switch name {
                case "lexeme":
                    graphemes = []
                    pronunciation = nil
                    preferred = false
                    lexemeStart = range.lowerBound
                case "phoneme":
                    phonemeAlphabet = attribute("alphabet") ?? alphabet
                    currentPrefer = attribute("prefer") == "true"
                case "alias":
                    currentPrefer = attribute("prefer") == "true"
                default: break
                }
                text = ""
                if !selfClosing { stack.append(rawName) }
            case .text(let chunk, _):
                text += chunk
            case .end(let rawName, let range):
                guard stack.last == rawName else {
                    throw scanner.error("end tag </\(rawName)> does not match <\(stack.last ?? "nothing")>", at: range.lowerBound)
                }
                stack.removeLast()
                let name = rawName.split(separator: ":").last.map(String.init) ?? rawName
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                switch name {
                case "grapheme":
                    if !value.isEmpty { graphemes.append(value) }
                case "phoneme", "alias":
                    if name == "phoneme", phonemeAlphabet.lowercased() != "ipa" {
                        throw scanner.error("phoneme alphabet \"\(phonemeAlphabet)\" is not supported; accepted: ipa", at: range.lowerBound)
                    }
                    let candidate: Pronunciation = name == "phoneme" ? .phonemes(value) : .alias(value)
                    if pronunciation == nil || (currentPrefer && !preferred) {
                        pronunciation = candidate
                        preferred = currentPrefer
                    }
                case "lexeme":
                    guard !graphemes.isEmpty, let pronunciation else {
                        throw scanner.error("<lexeme> needs a <grapheme> and a <phoneme> or <alias>", at: lexemeStart)
                    }
                    for grapheme in graphemes where entries[grapheme] == nil { entries[grapheme] = pronunciation }
                default: break
                }
                text = ""
            }
        }
        if let open = stack.last { throw scanner.error("<\(open)> is not closed", at: bytes.count) }
        // Text with no element at all (a file that is not XML, such as /etc/passwd) scans without an error.
        guard sawRoot else {
            throw TextError(.lexicon, "not a PLS lexicon: it has no <lexicon> element (a W3C pronunciation lexicon is XML, "
                + "<lexicon><lexeme><grapheme>…</grapheme><alias>…</alias></lexeme></lexicon>)")
        }
        guard !entries.isEmpty else {
            throw TextError(.lexicon, "the lexicon has no <lexeme> entries: it would change nothing")
        }
        self.init(entries: entries, language: language)
    }

    /// Pieces of `text`: runs of plain text and lexicon matches (whole words only, longest first).
    public func matches(in text: String) -> [(range: Range<String.Index>, pronunciation: Pronunciation?)] {
        var out: [(Range<String.Index>, Pronunciation?)] = []
        var plainStart = text.startIndex
        var i = text.startIndex
        var previousIsWord = false
        while i < text.endIndex {
            let c = text[i]
            if !previousIsWord, let candidates = index[c] {
                var matched: (String.Index, Pronunciation)?
                for grapheme in candidates {
                    guard text[i...].hasPrefix(grapheme) else { continue }
                    let end = text.index(i, offsetBy: grapheme.count)
                    if end == text.endIndex || !Self.isWordCharacter(text[end]) {
                        matched = (end, entries[grapheme]!)
                        break
                    }
                }
                if let (end, pronunciation) = matched {
                    if plainStart < i { out.append((plainStart..<i, nil)) }
                    out.append((i..<end, pronunciation))
                    i = end
                    plainStart = end
                    previousIsWord = true
                    continue
                }
            }
            previousIsWord = Self.isWordCharacter(c)
            i = text.index(after: i)
        }
        if plainStart < text.endIndex { out.append((plainStart..<text.endIndex, nil)) }
        return out
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// Applies the lexicon to SSML segments: aliases replace their grapheme, phonemes become `.phonemes`
    /// segments (with the source range of the text segment they came from).
    public func apply(to segments: [SpeechSegment]) -> [SpeechSegment] {
        segments.flatMap { segment -> [SpeechSegment] in
            guard let text = segment.text else { return [segment] }
            var out: [SpeechSegment] = []
            var pending = ""
            for (range, pronunciation) in matches(in: text) {
                switch pronunciation {
                case nil: pending += text[range]
                case .alias(let alias): pending += alias
                case .phonemes(let ipa):
                    if !pending.isEmpty { out.append(segment.with(.text(pending))) }
                    pending = ""
                    out.append(segment.with(.phonemes(ipa)))
                }
            }
            if !pending.isEmpty || out.isEmpty { out.append(segment.with(.text(pending))) }
            return out
        }
    }
}

extension SpeechSegment {
    func with(_ content: Content) -> SpeechSegment {
        var copy = self
        copy.content = content
        return copy
    }
}
