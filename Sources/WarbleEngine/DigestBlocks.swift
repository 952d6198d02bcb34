/// The 64-byte block feeding MD5 and SHA-256 share: bytes go to `compress` a whole block at a time,
/// the rest waits for the next update; `length` counts every byte (for the final padding).
struct DigestBlocks: Sendable {
    private(set) var pending: [UInt8] = []
    private(set) var length: UInt64 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer, _ compress: (UnsafeRawPointer) -> Void) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            if pending.count == 64 {
                pending.withUnsafeBytes { compress($0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    /// The padding that ends a message: 0x80, zeros to 56 bytes mod 64, then the bit length as 8
    /// bytes (big-endian for SHA-256, little-endian for MD5). Feeding it does not count in `length`.
    func padding(bigEndianLength: Bool) -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for i in 0..<8 {
            let shift = bigEndianLength ? 56 - 8 * i : 8 * i
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        return tail
    }
}
