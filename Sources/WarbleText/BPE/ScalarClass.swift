/// The character classes the pre-tokenizer patterns use: `\p{L}`, `\p{N}`, `\s` and everything else.
enum ScalarClass: UInt8 {
    case letter, number, whitespace, other

    private static let ascii: [ScalarClass] = (0..<128).map { value in
        let byte = UInt8(value)
        switch byte {
        case 0x09...0x0D, 0x20: return .whitespace
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return .letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return .other
        }
    }

    @inline(__always)
    init(_ value: UInt32) {
        if value < 128 {
            self = ScalarClass.ascii[Int(value)]
            return
        }
        guard let scalar = Unicode.Scalar(value) else {
            self = .other
            return
        }
        let properties = scalar.properties
        if properties.isWhitespace {
            self = .whitespace
            return
        }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            self = .letter
        case .decimalNumber, .letterNumber, .otherNumber:
            self = .number
        default:
            self = .other
        }
    }
}

/// Decodes the scalar starting at `index` of valid UTF-8 (Swift strings always are).
@inline(__always)
func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (value: UInt32, length: Int) {
    let b0 = UInt32(bytes[index])
    if b0 < 0x80 { return (b0, 1) }
    if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
    if b0 < 0xF0 {
        return ((b0 & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
    }
    let value = (b0 & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
    return (value, 4)
}
