/// SentencePiece's normalizer (normalizer.cc's `Normalizer::Normalize`), byte for byte: the
/// precompiled rules applied by longest prefix over UTF-8, user-defined symbols copied unchanged,
/// leading, trailing and repeated spaces removed (`remove_extra_whitespaces`), a space put in front
/// (`add_dummy_prefix`, or behind when whitespace is treated as a suffix) and spaces written as U+2581
/// (`escape_whitespaces`). The alignment to the input is not kept.
struct SentencePieceNormalizer: Sendable {
    static let spaceSymbol: [UInt8] = [0xE2, 0x96, 0x81]  // U+2581
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]  // U+FFFD

    let addDummyPrefix: Bool
    let removeExtraWhitespaces: Bool
    let escapeWhitespaces: Bool
    let treatWhitespaceAsSuffix: Bool
    private let charsMap: PrecompiledCharsMap?
    /// User-defined symbols: matched before the rules and copied unchanged.
    private let userDefined: PieceTrie?

    init(spec: SentencePieceModelProto.NormalizerSpec, treatWhitespaceAsSuffix: Bool = false, userDefined: PieceTrie? = nil) throws {
        addDummyPrefix = spec.addDummyPrefix
        removeExtraWhitespaces = spec.removeExtraWhitespaces
        escapeWhitespaces = spec.escapeWhitespaces
        self.treatWhitespaceAsSuffix = treatWhitespaceAsSuffix
        charsMap = spec.precompiledCharsmap.isEmpty ? nil : try PrecompiledCharsMap(spec.precompiledCharsmap)
        self.userDefined = (userDefined?.isEmpty ?? true) ? nil : userDefined
    }

    func normalize(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { normalize($0) }
    }

    func normalize(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        guard !input.isEmpty else { return output }
        var position = 0

        // Leading spaces.
        if removeExtraWhitespaces {
            while position < input.count {
                let (replacement, length) = prefix(input, position)
                guard replacement.count == 1, replacement.first == 0x20 else { break }
                position += length
            }
        }
        guard position < input.count else { return output }
        output.reserveCapacity((input.count - position) * 3)

        let space: [UInt8] = escapeWhitespaces ? Self.spaceSymbol : [0x20]
        if !treatWhitespaceAsSuffix, addDummyPrefix { output += space }

        var isPreviousSpace = removeExtraWhitespaces
        while position < input.count {
            let (replacement, length) = prefix(input, position)
            var piece = replacement[...]
            // Spaces at the start of a replacement go when the previous one ended with a space.
            while isPreviousSpace, piece.first == 0x20 { piece = piece.dropFirst() }
            if !piece.isEmpty {
                for byte in piece {
                    if escapeWhitespaces, byte == 0x20 { output += Self.spaceSymbol } else { output.append(byte) }
                }
                isPreviousSpace = piece.last == 0x20
            }
            position += length
            if !removeExtraWhitespaces { isPreviousSpace = false }
        }

        // Trailing spaces.
        if removeExtraWhitespaces {
            while output.count >= space.count, output[(output.count - space.count)...].elementsEqual(space) {
                output.removeLast(space.count)
            }
        }
        if treatWhitespaceAsSuffix, addDummyPrefix { output += space }
        return output
    }

    /// normalizer.cc's `NormalizePrefix`: the replacement of the longest match at `start` and the input
    /// bytes it consumes.
    private func prefix(_ input: UnsafeBufferPointer<UInt8>, _ start: Int) -> (ArraySlice<UInt8>, Int) {
        if let userDefined {
            let length = userDefined.longestPrefix(of: input, from: start)
            if length > 0 { return (ArraySlice(input[start..<(start + length)]), length) }
        }
        if let charsMap, let match = charsMap.longestMatch(input, from: start) {
            return (match.replacement, match.length)
        }
        let (valid, length) = UTF8Scalar.decode(input, start)
        if !valid { return (Self.replacementCharacter[...], 1) }
        return (ArraySlice(input[start..<(start + length)]), length)
    }
}

/// SentencePiece's UTF-8 helpers (util.h / util.cc).
enum UTF8Scalar {
    /// `OneCharLen`: the length a lead byte announces (1 for a stray continuation byte).
    @inline(__always)
    static func oneCharLength(_ lead: UInt8) -> Int {
        switch lead >> 4 {
        case 0xC, 0xD: return 2
        case 0xE: return 3
        case 0xF: return 4
        default: return 1
        }
    }

    /// `IsValidDecodeUTF8`: whether one well-formed character starts at `start` (a literal U+FFFD counts
    /// as valid), and its length (1 when it is not well-formed).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> (valid: Bool, length: Int) {
        let count = bytes.count - start
        let b0 = bytes[start]
        func trail(_ k: Int) -> Bool { bytes[start + k] & 0xC0 == 0x80 }
        func validScalar(_ c: UInt32) -> Bool { c < 0xD800 || (c >= 0xE000 && c <= 0x10FFFF) }
        if b0 < 0x80 { return (true, 1) }
        if count >= 2, b0 & 0xE0 == 0xC0 {
            let c = UInt32(b0 & 0x1F) << 6 | UInt32(bytes[start + 1] & 0x3F)
            if trail(1), c >= 0x80, validScalar(c) { return (true, 2) }
        } else if count >= 3, b0 & 0xF0 == 0xE0 {
            let c = UInt32(b0 & 0x0F) << 12 | UInt32(bytes[start + 1] & 0x3F) << 6 | UInt32(bytes[start + 2] & 0x3F)
            if trail(1), trail(2), c >= 0x800, validScalar(c) { return (true, 3) }
        } else if count >= 4, b0 & 0xF8 == 0xF0 {
            let c = UInt32(b0 & 0x07) << 18 | UInt32(bytes[start + 1] & 0x3F) << 12
                | UInt32(bytes[start + 2] & 0x3F) << 6 | UInt32(bytes[start + 3] & 0x3F)
            if trail(1), trail(2), trail(3), c >= 0x10000, validScalar(c) { return (true, 4) }
        }
        return (false, 1)
    }
}
