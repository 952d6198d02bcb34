import Foundation

/// A file a model source offers: where it is in the source, its size, and the digests the source
/// vouches for (checked after the download; a mismatch fails the install).
public struct RemoteFile: Sendable, Hashable {
    /// Path inside the source (a repository path for the Hugging Face Hub).
    public var path: String
    public var bytes: Int64
    /// Lower-case hex sha256, when the source knows it (the Hub's LFS files).
    public var sha256: String?
    /// Lower-case hex md5, when a catalogue gives it (Piper's voices.json).
    public var md5: String?

    public init(path: String, bytes: Int64, sha256: String? = nil, md5: String? = nil) {
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
        self.md5 = md5
    }
}

/// Where model files come from: the Hugging Face Hub, a mirror, a directory. The engine knows only
/// this protocol; HTTP lives in its own target (`WarbleHub`).
public protocol ModelSource: Sendable {
    /// Words for a manifest's `source`, such as "Hugging Face rhasspy/piper-voices@1a2b…".
    var origin: String { get }

    /// Brings `file` into `partial`, which may already hold the first bytes of it from an earlier,
    /// interrupted attempt: the source continues after them when it can and starts over when it
    /// cannot. Returns when `partial` holds the whole file; `progress` gets the bytes held so far.
    func fetch(_ file: RemoteFile, into partial: URL, progress: @escaping @Sendable (Int64) -> Void) async throws
}
