import Foundation

/// Parses the SSML 1.1 subset that speech-dispatcher and Apple's speech APIs send into a flat list of
/// `SpeechSegment`s: speak, p, s, break, prosody, emphasis, say-as, sub, phoneme, voice, lang, mark, audio
/// (its fallback text), desc (dropped); unknown elements are read for their text.
///
/// Input whose first element is not `<speak>` (after an optional XML prolog, comments and DOCTYPE) is plain text
/// and becomes one text segment, unchanged.
public struct SSMLParser: Sendable {
    public init() {}

    /// True when `input` is SSML rather than plain text: its first element is `<speak>`, after what a
    /// real SSML document may start with (a byte-order mark, white space, the XML declaration,
    /// processing instructions, comments and a DOCTYPE, which is never expanded). Looks at most at the
    /// prolog, so it is linear in the input's length.
    public static func isSSML(_ input: String) -> Bool {
        var rest = Substring(input)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return false }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.dropFirst(4).range(of: "-->") else { return false }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!DOCTYPE") {
                guard let end = doctypeEnd(rest) else { return false }
                rest = rest[end...]
            } else {
                break
            }
        }
        guard rest.hasPrefix("<speak") else { return false }
        let next = rest.dropFirst(6).first
        return next == nil || next == ">" || next == "/" || next!.isWhitespace
    }

    /// The index after a DOCTYPE's closing `>` (its internal subset in brackets and quoted strings skipped).
    private static func doctypeEnd(_ text: Substring) -> String.Index? {
        var depth = 0
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            index = text.index(after: index)
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "[": depth += 1
            case "]": depth -= 1
            case ">" where depth <= 0: return index
            default: break
            }
        }
        return nil
    }

    /// The text of an SSML document with its markup removed and the XML entities decoded, for when the
    /// document cannot be parsed and its words should still be spoken. Never fails.
    public static func textWithoutMarkup(_ input: String) -> String {
        var out = ""
        out.reserveCapacity(input.utf8.count)
        var inTag = false
        var entity: String?
        for character in input {
            if inTag {
                if character == ">" {
                    inTag = false
                    out.append(" ")
                }
                continue
            }
            if var pending = entity {
                if character == ";" {
                    out += decodeEntity(pending)
                    entity = nil
                } else if pending.count < 10, character.isLetter || character.isNumber || character == "#" {
                    pending.append(character)
                    entity = pending
                } else {
                    out += "&" + pending
                    entity = nil
                    if character == "<" { inTag = true } else { out.append(character) }
                }
                continue
            }
            switch character {
            case "<": inTag = true
            case "&": entity = ""
            default: out.append(character)
            }
        }
        if let entity { out += "&" + entity }
        return SSMLWalker.collapseWhitespace(out).trimmingCharacters(in: .whitespaces)
    }

    private static func decodeEntity(_ name: String) -> String {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let value = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return " " }
            return String(scalar)
        }
    }

    public func parse(_ input: String) throws -> [SpeechSegment] {
        guard Self.isSSML(input) else {
            return input.isEmpty ? [] : [SpeechSegment(.text(input), sourceRange: 0..<input.utf8.count)]
        }
        var walker = SSMLWalker(bytes: Array(input.utf8))
        return try walker.run()
    }
}

/// The element stack and output of one parse.
struct SSMLWalker {
    struct Context {
        var name: String
        var language: String?
        var voice: String?
        var prosody = Prosody.neutral
        var emphasis: Emphasis?
        var sayAs: SayAs?
        /// Text inside is replaced (sub alias, phoneme) or dropped (desc).
        var suppressText = false
        var start: Int
    }

    let bytes: [UInt8]
    var scanner: XMLScanner
    var stack: [Context] = []
    var segments: [SpeechSegment] = []
    var sawRoot = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.scanner = XMLScanner(bytes)
    }

    mutating func run() throws -> [SpeechSegment] {
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes, let selfClosing, let range):
                try start(name, attributes, range)
                if selfClosing { try end(name, range) }
            case .end(let name, let range):
                try end(name, range)
            case .text(let text, let range):
                try addText(text, range)
            }
        }
        if let open = stack.last {
            throw scanner.error("<\(open.name)> is not closed", at: open.start)
        }
        guard sawRoot else { throw scanner.error("no <speak> element", at: 0) }
        return segments
    }

    private func attribute(_ attributes: [(name: String, value: String)], _ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    private func invalid(_ attribute: String, _ value: String, of element: String, accepted: String, at offset: Int) -> TextError {
        scanner.error("<\(element) \(attribute)=\"\(value)\"> is not valid; accepted: \(accepted)", at: offset)
    }

    private mutating func start(_ rawName: String, _ attributes: [(name: String, value: String)], _ range: Range<Int>) throws {
        let name = rawName.split(separator: ":").last.map(String.init) ?? rawName
        if stack.isEmpty {
            guard name == "speak", !sawRoot else {
                throw scanner.error(sawRoot ? "content after </speak>" : "the root element is <\(rawName)>; accepted: <speak>", at: range.lowerBound)
            }
            sawRoot = true
        }
        var context = stack.last ?? Context(name: name, start: range.lowerBound)
        context.name = rawName
        context.start = range.lowerBound
        if let language = attribute(attributes, "xml:lang") ?? (name == "lang" ? attribute(attributes, "lang") : nil) {
            context.language = language
        }
        switch name {
        case "break":
            var seconds = 0.5
            if let strength = attribute(attributes, "strength") {
                guard let value = SSMLValues.breakStrengths[strength] else {
                    throw invalid("strength", strength, of: name, accepted: "none, x-weak, weak, medium, strong, x-strong", at: range.lowerBound)
                }
                seconds = value
            }
            if let time = attribute(attributes, "time") {
                guard let value = SSMLValues.seconds(time) else {
                    throw invalid("time", time, of: name, accepted: "a duration such as 250ms or 1.5s", at: range.lowerBound)
                }
                guard value <= SpeechLimits.maximumBreak else {
                    throw scanner.error("<break time=\"\(time)\"> is longer than the \(SpeechLimits.describe(SpeechLimits.maximumBreak)) s "
                        + "a break may last; use several sentences or a shorter pause", at: range.lowerBound)
                }
                seconds = value
            }
            append(.pause(seconds), context, range)
        case "mark":
            guard let markName = attribute(attributes, "name") else {
                throw scanner.error("<mark> has no name attribute", at: range.lowerBound)
            }
            append(.mark(markName), context, range)
        case "prosody":
            for (key, parse, accepted) in [
                ("rate", SSMLValues.rate, "x-slow, slow, medium, fast, x-fast, default, N%, +N%, -N% or a number, "
                    + "for a factor from \(SpeechLimits.describe(SpeechLimits.rate.lowerBound)) to \(SpeechLimits.describe(SpeechLimits.rate.upperBound))"),
                ("pitch", SSMLValues.pitch, "x-low, low, medium, high, x-high, default, +N%, -N%, +Nst, -Nst or NHz, "
                    + "for a factor from \(SpeechLimits.describe(SpeechLimits.pitch.lowerBound)) to \(SpeechLimits.describe(SpeechLimits.pitch.upperBound))"),
                ("volume", SSMLValues.volume, "silent, x-soft, soft, medium, loud, x-loud, default, +NdB, -NdB, N% or 0-100, "
                    + "for a gain of at most \(SpeechLimits.describe(SpeechLimits.volume.upperBound)) (+12 dB)"),
            ] {
                guard let raw = attribute(attributes, key) else { continue }
                guard let factor = parse(raw) else {
                    throw invalid(key, raw, of: name, accepted: accepted, at: range.lowerBound)
                }
                switch key {
                case "rate": context.prosody.rate *= factor
                case "pitch": context.prosody.pitch *= factor
                default: context.prosody.volume *= factor
                }
                context.prosody = context.prosody.bounded
            }
        case "emphasis":
            let levelName = attribute(attributes, "level") ?? "moderate"
            guard let level = Emphasis(rawValue: levelName) else {
                throw invalid("level", levelName, of: name, accepted: "strong, moderate, none, reduced", at: range.lowerBound)
            }
            context.emphasis = level
            switch level {
            case .strong: context.prosody.volume *= 1.25; context.prosody.rate *= 0.9
            case .moderate: context.prosody.volume *= 1.12; context.prosody.rate *= 0.95
            case .reduced: context.prosody.volume *= 0.85; context.prosody.rate *= 1.05
            case .none: break
            }
            context.prosody = context.prosody.bounded
        case "say-as":
            let kind = attribute(attributes, "interpret-as") ?? ""
            let aliases: [String: SayAs.Interpretation] = ["number": .cardinal, "spell": .characters, "phone": .telephone]
            guard let interpretation = SayAs.Interpretation(rawValue: kind) ?? aliases[kind] else {
                throw invalid("interpret-as", kind, of: name,
                              accepted: SayAs.Interpretation.allCases.map(\.rawValue).joined(separator: ", "), at: range.lowerBound)
            }
            context.sayAs = SayAs(interpretation, format: attribute(attributes, "format"))
        case "sub":
            guard let alias = attribute(attributes, "alias") else {
                throw scanner.error("<sub> has no alias attribute", at: range.lowerBound)
            }
            if !context.suppressText { append(.text(alias), context, range) }
            context.suppressText = true
        case "phoneme":
            guard let ph = attribute(attributes, "ph") else {
                throw scanner.error("<phoneme> has no ph attribute", at: range.lowerBound)
            }
            let alphabet = attribute(attributes, "alphabet") ?? "ipa"
            // Other alphabets (x-sampa, Apple's) are not converted: the element's text is read instead.
            if alphabet.lowercased() == "ipa" {
                if !context.suppressText { append(.phonemes(ph), context, range) }
                context.suppressText = true
            }
        case "voice":
            if let voice = attribute(attributes, "name") { context.voice = voice }
        case "desc":
            context.suppressText = true
        case "p", "s":
            appendBoundary(context, range)
        default:
            break  // speak, lang, audio, and unknown elements: their text is read
        }
        stack.append(context)
    }

    private mutating func end(_ rawName: String, _ range: Range<Int>) throws {
        guard let open = stack.last else {
            throw scanner.error("end tag </\(rawName)> has no matching start tag", at: range.lowerBound)
        }
        guard open.name == rawName else {
            throw scanner.error("end tag </\(rawName)> does not match <\(open.name)>", at: range.lowerBound)
        }
        stack.removeLast()
        let name = rawName.split(separator: ":").last.map(String.init) ?? rawName
        if name == "p" || name == "s" { appendBoundary(open, range) }
    }

    /// A sentence or paragraph edge: a short pause (merged with any pause already there).
    private mutating func appendBoundary(_ context: Context, _ range: Range<Int>) {
        guard !segments.isEmpty else { return }
        if case .pause = segments[segments.count - 1].content { return }
        append(.pause(0), context, range.lowerBound..<range.lowerBound)
    }

    private mutating func addText(_ text: String, _ range: Range<Int>) throws {
        guard let context = stack.last else {
            // White space and a byte-order mark may stand around the root element.
            if text.allSatisfy({ $0.isWhitespace || $0 == "\u{FEFF}" }) { return }
            throw scanner.error(sawRoot ? "text after </speak>" : "text before <speak>", at: range.lowerBound)
        }
        if context.suppressText { return }
        let collapsed = Self.collapseWhitespace(text)
        if collapsed.isEmpty { return }
        if collapsed == " " {
            // Whitespace between elements only separates words: it joins text with the same attributes and is
            // never a segment of its own.
            guard let last = segments.last, let previous = last.text, last.sayAs == nil, !previous.hasSuffix(" "),
                last.language == context.language, last.voice == context.voice, last.prosody == context.prosody,
                last.emphasis == context.emphasis
            else { return }
        }
        // Merge with the previous text segment when everything else is the same.
        if let last = segments.last, let previous = last.text, last.sayAs == nil, context.sayAs == nil,
            last.language == context.language, last.voice == context.voice, last.prosody == context.prosody,
            last.emphasis == context.emphasis
        {
            let joined = previous.hasSuffix(" ") && collapsed.hasPrefix(" ") ? previous + collapsed.dropFirst() : previous + collapsed
            segments[segments.count - 1].content = .text(joined)
            segments[segments.count - 1].sourceRange = last.sourceRange.lowerBound..<range.upperBound
            return
        }
        append(.text(collapsed), context, range)
    }

    static func collapseWhitespace(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        if pendingSpace { out.append(" ") }
        return out
    }

    private mutating func append(_ content: SpeechSegment.Content, _ context: Context, _ range: Range<Int>) {
        segments.append(SpeechSegment(
            content, language: context.language, voice: context.voice, prosody: context.prosody,
            emphasis: context.emphasis, sayAs: context.sayAs, sourceRange: range))
    }
}
