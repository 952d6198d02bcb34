import Foundation

/// MD5 (RFC 1321), only to check downloads against catalogues that list md5 digests (Piper's
/// voices.json); never for anything that needs a secure hash.
public struct MD5: Sendable {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    private var blocks = DigestBlocks()

    public init() {}

    public mutating func update<D: DataProtocol>(_ data: D) {
        for region in data.regions {
            region.withUnsafeBytes { bytes in
                var blocks = self.blocks
                blocks.update(bytes) { compress($0) }
                self.blocks = blocks
            }
        }
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        update(blocks.padding(bigEndianLength: false))
        let words = [state.0, state.1, state.2, state.3]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) } }
            .map { String(format: "%02x", $0) }.joined()
    }

    /// The hex digest of `data`.
    public static func hex<D: DataProtocol>(_ data: D) -> String {
        var hasher = MD5()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        var m = [UInt32](repeating: 0, count: 16)
        for i in 0..<16 { m[i] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            f = f &+ a &+ Self.constants[i] &+ m[g]
            a = d
            d = c
            c = b
            b = b &+ ((f << Self.shifts[i]) | (f >> (32 - Self.shifts[i])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
