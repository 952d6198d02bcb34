import CLibCrypto
import Foundation

/// A streaming digest over OpenSSL's libcrypto (its EVP interface: SHA-NI and AVX2 code where the CPU has
/// them). One context per hasher, freed with it; `SHA256` and `MD5` are the two callers need.
final class Digest {
    private let context: OpaquePointer
    private var finished = false

    /// A digest by `algorithm` (EVP_sha256, EVP_md5). libcrypto fails here only out of memory or when the
    /// algorithm is not compiled in, which Debian's build never is for these two.
    init(_ algorithm: OpaquePointer) {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, algorithm, nil) == 1 else {
            fatalError("libcrypto could not start a \(String(cString: EVP_MD_get0_name(algorithm))) digest")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "a digest is updated after it was finalised")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    func update<D: DataProtocol>(_ data: D) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    /// The digest's bytes; the hasher takes no more input after this.
    func finalize() -> [UInt8] {
        precondition(!finished, "a digest is finalised twice")
        finished = true
        var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &bytes, &length)
        return Array(bytes.prefix(Int(length)))
    }
}
