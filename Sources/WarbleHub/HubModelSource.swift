import Foundation
import WarbleEngine

/// One repository of the Hub at one commit, as a `ModelSource`: every file of a pull comes from the
/// commit the first answer named (`X-Repo-Commit`), so a push during the pull cannot mix versions.
public struct HubModelSource: ModelSource {
    public let client: HubClient
    public let repo: String
    public let commit: String

    public init(client: HubClient, repo: String, commit: String) {
        self.client = client
        self.repo = repo
        self.commit = commit
    }

    public var origin: String { "Hugging Face \(repo)@\(commit)" }

    /// The file's size and sha256 as the Hub gives them (for a plan made before downloading).
    public func describe(_ path: String) async throws -> RemoteFile {
        let metadata = try await client.metadata(repo: repo, revision: commit, path: path)
        guard let size = metadata.size else {
            throw HubError(.unexpected, "\(repo)/\(path): the Hub gave no size")
        }
        return RemoteFile(path: path, bytes: size, sha256: metadata.sha256)
    }

    public func fetch(_ file: RemoteFile, into partial: URL, progress: @escaping @Sendable (Int64) -> Void) async throws {
        let metadata = try await client.metadata(repo: repo, revision: commit, path: file.path)
        if let size = metadata.size, size != file.bytes {
            throw HubError(.integrity, "\(repo)/\(file.path) has \(size) bytes on the Hub, but the catalogue lists \(file.bytes)")
        }
        try await client.download(metadata, what: "\(repo)/\(file.path)", into: partial, total: file.bytes, progress: progress)
    }
}
