import Crypto
import Foundation

/// MD5, only to check downloads against catalogues that list md5 digests (Piper's voices.json); never for
/// anything that needs a secure hash. swift-crypto's `Insecure.MD5`, streamed like `SHA256`.
public struct MD5 {
    private var hasher = Insecure.MD5()

    public init() {}

    public mutating func update<D: DataProtocol>(_ data: D) {
        hasher.update(data: data)
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        SHA256.hex(digest: hasher.finalize())
    }

    /// The hex digest of `data`.
    public static func hex<D: DataProtocol>(_ data: D) -> String {
        SHA256.hex(digest: Insecure.MD5.hash(data: data))
    }
}
