/// A small, non-validating XML scanner for SSML: elements, attributes, text, the predefined and numeric
/// entities, CDATA, comments and processing instructions. A DOCTYPE is skipped without being read, so no
/// external entity or DTD is ever fetched.
struct XMLScanner {
    enum Event {
        case start(name: String, attributes: [(name: String, value: String)], selfClosing: Bool, range: Range<Int>)
        case end(name: String, range: Range<Int>)
        case text(String, range: Range<Int>)
    }

    private let bytes: [UInt8]
    private var i = 0
    private let kind: TextError.Kind
    private let document: String

    init(_ bytes: [UInt8], kind: TextError.Kind = .ssml, document: String = "SSML") {
        self.bytes = bytes
        self.kind = kind
        self.document = document
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            let b = bytes[k]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return (line, column)
    }

    func error(_ message: String, at offset: Int) -> TextError {
        let (line, column) = Self.location(of: offset, in: bytes)
        return TextError(kind, "malformed \(document): \(message)", line: line, column: column)
    }

    private func hasPrefix(_ s: String, at k: Int) -> Bool {
        let p = Array(s.utf8)
        guard k + p.count <= bytes.count else { return false }
        for j in 0..<p.count where bytes[k + j] != p[j] { return false }
        return true
    }

    private func find(_ s: String, from k: Int) -> Int? {
        let p = Array(s.utf8)
        var j = k
        while j + p.count <= bytes.count {
            if bytes[j] == p[0], hasPrefix(s, at: j) { return j }
            j += 1
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
            || b == 0x3A || b == 0x2E || b >= 0x80
    }

    /// The next event, or nil at the end of the input.
    mutating func next() throws -> Event? {
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") { return .text(try scanText(), range: textRange) }
            let start = i
            if hasPrefix("<!--", at: i) {
                guard let end = find("-->", from: i + 4) else { throw error("comment is not closed with -->", at: start) }
                i = end + 3
            } else if hasPrefix("<![CDATA[", at: i) {
                guard let end = find("]]>", from: i + 9) else { throw error("CDATA section is not closed with ]]>", at: start) }
                let text = String(decoding: bytes[(i + 9)..<end], as: UTF8.self)
                i = end + 3
                return .text(text, range: start..<i)
            } else if hasPrefix("<?", at: i) {
                guard let end = find("?>", from: i + 2) else { throw error("processing instruction is not closed with ?>", at: start) }
                i = end + 2
            } else if hasPrefix("<!DOCTYPE", at: i) {
                try skipDoctype()
            } else if hasPrefix("</", at: i) {
                i += 2
                let name = try scanName()
                skipSpaces()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
                    throw error("end tag </\(name) is not closed with >", at: start)
                }
                i += 1
                return .end(name: name, range: start..<i)
            } else {
                return try scanStartTag()
            }
        }
        return nil
    }

    private var textStart = 0
    private var textRange: Range<Int> { textStart..<i }

    private mutating func scanText() throws -> String {
        textStart = i
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
            if bytes[i] == UInt8(ascii: "&") {
                out += try scanEntity()
            } else {
                if bytes[i] == UInt8(ascii: ">"), i >= 2, bytes[i - 1] == UInt8(ascii: "]"), bytes[i - 2] == UInt8(ascii: "]") {
                    throw error("]]> is not allowed in text", at: i - 2)
                }
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func scanEntity() throws -> [UInt8] {
        let start = i
        guard let semicolon = bytes[i..<min(bytes.count, i + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw error("& does not start an entity; write &amp; for a literal ampersand", at: start)
        }
        let name = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
        i = semicolon + 1
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var value: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst(), radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
                throw error("unknown entity &\(name); accepted: &amp; &lt; &gt; &quot; &apos; and &#N; / &#xN; character references", at: start)
            }
            return Array(String(scalar).utf8)
        }
    }

    private mutating func skipSpaces() {
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
    }

    private mutating func scanName() throws -> String {
        let start = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > start else {
            let found = i < bytes.count ? "'\(String(decoding: [bytes[i]], as: UTF8.self))'" : "the end of the input"
            throw error("expected a name but found \(found)", at: start)
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func scanStartTag() throws -> Event {
        let start = i
        i += 1
        let name = try scanName()
        var attributes: [(name: String, value: String)] = []
        while true {
            let beforeSpace = i
            skipSpaces()
            guard i < bytes.count else { throw error("start tag <\(name) is not closed with >", at: start) }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                return .start(name: name, attributes: attributes, selfClosing: false, range: start..<i)
            }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else {
                    throw error("expected /> to close <\(name)", at: i)
                }
                i += 2
                return .start(name: name, attributes: attributes, selfClosing: true, range: start..<i)
            }
            guard i > beforeSpace else { throw error("expected a space before the next attribute of <\(name)>", at: i) }
            let attributeStart = i
            let attribute = try scanName()
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw error("attribute \(attribute) of <\(name)> has no value (expected =\"...\")", at: attributeStart)
            }
            i += 1
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error("value of attribute \(attribute) is not quoted", at: i)
            }
            let quote = bytes[i]
            i += 1
            var value: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("value of attribute \(attribute) is not closed", at: attributeStart) }
                let b = bytes[i]
                if b == quote { break }
                if b == UInt8(ascii: "<") { throw error("< is not allowed in the value of attribute \(attribute)", at: i) }
                if b == UInt8(ascii: "&") {
                    value += try scanEntity()
                } else {
                    value.append(Self.isSpace(b) ? 0x20 : b)
                    i += 1
                }
            }
            i += 1
            if attributes.contains(where: { $0.name == attribute }) {
                throw error("attribute \(attribute) appears twice in <\(name)>", at: attributeStart)
            }
            attributes.append((attribute, String(decoding: value, as: UTF8.self)))
        }
    }

    /// Skips `<!DOCTYPE ...>` including an internal subset in brackets; its declarations are not used.
    private mutating func skipDoctype() throws {
        let start = i
        var depth = 0
        var quote: UInt8?
        i += 2
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if let q = quote {
                if b == q { quote = nil }
                continue
            }
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return
            default: break
            }
        }
        throw error("DOCTYPE is not closed with >", at: start)
    }
}
