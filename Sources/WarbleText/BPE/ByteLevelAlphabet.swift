/// GPT-2's reversible map between the 256 byte values and printable Unicode characters.
enum ByteLevelAlphabet {
    /// `character[b]` is the character that stands for byte `b`.
    static let characters: [Character] = {
        var table = [UInt32](repeating: 0, count: 256)
        var next: UInt32 = 256
        for byte in 0..<256 {
            let printable = (0x21...0x7E).contains(byte) || (0xA1...0xAC).contains(byte) || (0xAE...0xFF).contains(byte)
            if printable {
                table[byte] = UInt32(byte)
            } else {
                table[byte] = next
                next += 1
            }
        }
        return table.map { Character(Unicode.Scalar($0)!) }
    }()

    /// The inverse map, from a character's scalar value to its byte.
    static let bytes: [UInt32: UInt8] = {
        var map: [UInt32: UInt8] = [:]
        for (byte, character) in characters.enumerated() {
            map[character.unicodeScalars.first!.value] = UInt8(byte)
        }
        return map
    }()

    /// The bytes a vocabulary token stands for; tokens with characters outside the alphabet keep their UTF-8.
    static func decode(_ token: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(token.unicodeScalars.count)
        for scalar in token.unicodeScalars {
            guard let byte = bytes[scalar.value] else { return Array(token.utf8) }
            out.append(byte)
        }
        return out
    }

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.map { characters[Int($0)] })
    }
}
