/// An open-addressing hash table from a pair of token ids to the merge's rank and resulting id.
/// BPE spends most of its time here, so it avoids `Dictionary`'s general-purpose hashing.
struct MergeTable: Sendable {
    private static let empty = UInt64.max
    private var keys: [UInt64]
    private var values: [UInt64]
    private let shift: UInt64
    private let mask: Int

    init(_ merges: [(left: Int32, right: Int32, merged: Int32)]) {
        var capacity = 16
        var bits: UInt64 = 4
        while capacity < merges.count * 2 {
            capacity <<= 1
            bits += 1
        }
        keys = [UInt64](repeating: Self.empty, count: capacity)
        values = [UInt64](repeating: 0, count: capacity)
        shift = 64 - bits
        mask = capacity - 1
        for (rank, merge) in merges.enumerated() {
            let key = Self.key(merge.left, merge.right)
            var slot = slotFor(key)
            while keys[slot] != Self.empty, keys[slot] != key { slot = (slot + 1) & mask }
            if keys[slot] == key { continue }  // a repeated merge keeps its first (lowest) rank
            keys[slot] = key
            values[slot] = UInt64(rank) << 32 | UInt64(UInt32(bitPattern: merge.merged))
        }
    }

    @inline(__always)
    private static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }

    @inline(__always)
    private func slotFor(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The rank (lower merges first) and merged id, or nil when the pair never merges.
    @inline(__always)
    func lookup(_ left: Int32, _ right: Int32) -> (rank: Int32, merged: Int32)? {
        let key = Self.key(left, right)
        return keys.withUnsafeBufferPointer { keys in
            var slot = slotFor(key)
            while true {
                let found = keys[slot]
                if found == key {
                    let value = values[slot]
                    return (Int32(truncatingIfNeeded: value >> 32), Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
                }
                if found == Self.empty { return nil }
                slot = (slot + 1) & mask
            }
        }
    }
}
