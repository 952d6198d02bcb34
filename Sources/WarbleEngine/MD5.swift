import CLibCrypto
import Foundation

/// MD5, only to check downloads against catalogues that list md5 digests (Piper's voices.json); never for
/// anything that needs a secure hash. libcrypto's (`Digest`), streamed like `SHA256`.
public struct MD5 {
    private let hasher = Digest(EVP_md5())

    public init() {}

    public mutating func update<D: DataProtocol>(_ data: D) {
        hasher.update(data)
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        SHA256.hex(digest: hasher.finalize())
    }

    /// The hex digest of `data`.
    public static func hex<D: DataProtocol>(_ data: D) -> String {
        var hasher = MD5()
        hasher.update(data)
        return hasher.finalizeHex()
    }
}
