/// SentencePiece's precompiled normalization rules (`NormalizerSpec.precompiled_charsmap`): a little-endian
/// `UInt32` byte count of a darts-clone double-array trie, the trie's 32-bit units, then a blob of
/// NUL-terminated replacement strings. A key is a UTF-8 byte sequence; its value is the offset of its
/// replacement in the blob (normalizer.cc's `DecodePrecompiledCharsMap` and `NormalizePrefix`).
///
/// Every unit and blob offset is checked before it is read, so a damaged map finds fewer rules and
/// never reads outside its bytes.
struct PrecompiledCharsMap: Sendable {
    /// normalizer.h's `kMaxTrieResultsSize`: matches past this many are not considered.
    static let maxResults = 32

    private let units: [UInt32]
    private let replacements: [UInt8]

    init(_ blob: [UInt8]) throws {
        guard blob.count > 4 else {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: the normalization rules are \(blob.count) bytes, too short to hold their trie's size")
        }
        let trieSize = Int(UInt32(blob[0]) | UInt32(blob[1]) << 8 | UInt32(blob[2]) << 16 | UInt32(blob[3]) << 24)
        guard trieSize < blob.count, trieSize <= blob.count - 4 else {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: the normalization trie claims \(trieSize) bytes of a \(blob.count)-byte blob")
        }
        let unitCount = trieSize / 4
        var units = [UInt32](repeating: 0, count: unitCount)
        for k in 0..<unitCount {
            let o = 4 + 4 * k
            units[k] = UInt32(blob[o]) | UInt32(blob[o + 1]) << 8 | UInt32(blob[o + 2]) << 16 | UInt32(blob[o + 3]) << 24
        }
        guard !units.isEmpty else {
            throw TextError(.tokenizerFile, "SentencePiece model is damaged: the normalization trie is empty")
        }
        self.units = units
        replacements = Array(blob[(4 + trieSize)...])
    }

    /// The longest rule matching a prefix of `input[start..<end]`: its length in bytes and replacement,
    /// or nil when no rule matches.
    func longestMatch(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> (length: Int, replacement: ArraySlice<UInt8>)? {
        var longestLength = 0
        var longestValue = 0
        var found = 0
        units.withUnsafeBufferPointer { units in
            var node = Int(Self.offset(units[0]))
            var i = start
            while i < input.count {
                let byte = input[i]
                node ^= Int(byte)
                guard node < units.count else { return }
                let unit = units[node]
                // label(): the low byte and the leaf flag (bit 31), so that a leaf never matches a byte.
                guard unit & 0x8000_00FF == UInt32(byte) else { return }
                node ^= Int(Self.offset(unit))
                if (unit >> 8) & 1 == 1 {
                    guard node < units.count else { return }
                    if found < Self.maxResults {
                        // darts reports prefixes shortest first: the last one kept is the longest.
                        longestLength = i + 1 - start
                        longestValue = Int(units[node] & 0x7FFF_FFFF)
                    }
                    found += 1
                }
                i += 1
            }
        }
        guard longestLength > 0 else { return nil }
        guard longestValue < replacements.count else { return (longestLength, []) }
        var stop = longestValue
        while stop < replacements.count, replacements[stop] != 0 { stop += 1 }
        return (longestLength, replacements[longestValue..<stop])
    }

    @inline(__always)
    private static func offset(_ unit: UInt32) -> UInt32 {
        // darts-clone: (unit >> 10) << ((unit & (1 << 9)) >> 6); the shift is 0 or 8.
        (unit >> 10) << ((unit & (1 << 9)) >> 6)
    }
}
