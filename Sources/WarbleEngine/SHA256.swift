import CLibCrypto
import Foundation

/// SHA-256 for checking model files, wheels, clips and history audio against their recorded digests: OpenSSL's
/// libcrypto (`Digest`), behind the streaming interface the callers use (update as bytes arrive, then the
/// lowercase hex digest, once). A hasher is not to be copied and then updated in both copies: they share
/// one context.
public struct SHA256 {
    private let hasher = Digest(EVP_sha256())

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bytes)
    }

    public mutating func update<D: DataProtocol>(_ data: D) {
        hasher.update(data)
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        Self.hex(digest: hasher.finalize())
    }

    /// The hex digest of `data`.
    public static func hex<D: DataProtocol>(_ data: D) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// The hex digest of a file, read in 1 MiB blocks.
    public static func hex(ofFile url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            hasher.update(block)
        }
        return hasher.finalizeHex()
    }

    static func hex(digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
