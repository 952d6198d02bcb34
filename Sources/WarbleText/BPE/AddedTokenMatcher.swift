/// Finds added tokens in text, leftmost-longest, with their strip and single-word options.
struct AddedTokenMatcher: Sendable {
    private let tokens: [(bytes: [UInt8], token: AddedToken)]
    /// Candidates by first byte, longest first.
    private let byFirstByte: [[Int]]

    init(_ tokens: [AddedToken]) {
        let list = tokens.filter { !$0.content.isEmpty }.map { (bytes: Array($0.content.utf8), token: $0) }
        var index = [[Int]](repeating: [], count: 256)
        for (k, entry) in list.enumerated() { index[Int(entry.bytes[0])].append(k) }
        for b in 0..<256 { index[b].sort { list[$0].bytes.count > list[$1].bytes.count } }
        self.tokens = list
        self.byFirstByte = index
    }

    var isEmpty: Bool { tokens.isEmpty }

    enum Piece {
        case text(Range<Int>)
        case token(Int)
    }

    /// Splits `bytes` into text ranges and matched token ids.
    func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        var textStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            guard let (k, length) = longestMatch(bytes, at: i) else {
                i += 1
                continue
            }
            let token = tokens[k].token
            var start = i
            var stop = i + length
            if token.singleWord {
                let startOK = start == 0 || !Self.endsWithWordCharacter(bytes, before: start)
                let stopOK = stop == n || !Self.startsWithWordCharacter(bytes, at: stop)
                if !startOK || !stopOK {
                    i += 1
                    continue
                }
            }
            if token.leftStrip { start = max(Self.whitespaceStart(bytes, before: start), textStart) }
            if token.rightStrip { stop = Self.whitespaceEnd(bytes, from: stop) }
            if textStart < start { pieces.append(.text(textStart..<start)) }
            pieces.append(.token(token.id))
            textStart = stop
            i = stop
        }
        if textStart < n { pieces.append(.text(textStart..<n)) }
        return pieces
    }

    private func longestMatch(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int, Int)? {
        for k in byFirstByte[Int(bytes[i])] {
            let candidate = tokens[k].bytes
            guard i + candidate.count <= bytes.count else { continue }
            var equal = true
            for j in 1..<candidate.count where bytes[i + j] != candidate[j] {
                equal = false
                break
            }
            if equal { return (k, candidate.count) }
        }
        return nil
    }

    private static func scalars(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String.UnicodeScalarView {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).unicodeScalars
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func endsWithWordCharacter(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int) -> Bool {
        scalars(bytes, max(0, index - 4)..<index).last.map(isWordScalar) ?? false
    }

    private static func startsWithWordCharacter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        scalars(bytes, index..<min(bytes.count, index + 4)).first.map(isWordScalar) ?? false
    }

    /// Start of the run of whitespace that ends at `index` (walking back scalar by scalar).
    private static func whitespaceStart(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int) -> Int {
        var start = index
        while start > 0 {
            var lead = start - 1
            while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            let (value, _) = decodeScalar(bytes, lead)
            guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { break }
            start = lead
        }
        return start
    }

    /// End of the run of whitespace that starts at `index`.
    private static func whitespaceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var i = index
        while i < bytes.count {
            let (value, length) = decodeScalar(bytes, i)
            guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { break }
            i += length
        }
        return i
    }
}
