import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WarbleEngine

/// The Hugging Face Hub's HTTP API as huggingface_hub uses it (../shared/specs/hub.md): file metadata
/// from a HEAD on the resolve URL (relative redirects followed, the CDN redirect recorded, not
/// followed), downloads that continue with `Range`, and the tree listing with its pages. The token
/// goes only to the Hub's own host, never to the CDN a download is redirected to.
public final class HubClient: Sendable {
    public let environment: HubEnvironment
    let userAgent: String
    let http: HubTransport
    /// Attempts per download (broken transfers and 408/429/5xx answers), with back-off in between.
    static let attempts = 5

    /// `idleTimeout`: the longest wait for the next bytes of an answer, the connection's set-up included (a
    /// listing that only reads small files can give up sooner than a download, so that no network fails fast).
    public init(environment: HubEnvironment = HubEnvironment(), userAgent: String = "warble", idleTimeout: TimeInterval = 60) {
        self.environment = environment
        self.userAgent = userAgent
        http = HubTransport(idleTimeout: idleTimeout)
    }

    /// Closes the connections; call once when done (`with` does it on every path).
    public func shutdown() async throws {
        http.shutdown()
    }

    /// Runs `body` with a client that is shut down afterwards, also when `body` throws.
    public static func with<T: Sendable>(environment: HubEnvironment = HubEnvironment(), userAgent: String = "warble",
                                         idleTimeout: TimeInterval = 60,
                                         _ body: (HubClient) async throws -> T) async throws -> T {
        let client = HubClient(environment: environment, userAgent: userAgent, idleTimeout: idleTimeout)
        do {
            let result = try await body(client)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// What a HEAD on a file's resolve URL says about it.
    public struct FileMetadata: Sendable, Equatable {
        /// The commit the revision resolved to (`X-Repo-Commit`).
        public var commit: String?
        /// `X-Linked-Etag`, else `ETag`, without `W/` and quotes: the sha256 of an LFS file.
        public var etag: String?
        public var size: Int64?
        /// Where the bytes are: the CDN for LFS files, else the resolve URL itself.
        public var location: String

        /// The etag when it is a sha256 (64 hex digits), lower-cased.
        public var sha256: String? {
            guard let etag, etag.count == 64, etag.allSatisfy(\.isHexDigit) else { return nil }
            return etag.lowercased()
        }
    }

    func checkOnline(_ what: String) throws {
        if environment.offline {
            throw HubError(.offline, "HF_HUB_OFFLINE is set, so nothing can be downloaded: \(what) is missing; "
                + "unset HF_HUB_OFFLINE (or pull on a machine with network and copy $WARBLE_HOME/models)")
        }
    }

    /// The request with `Authorization` when it goes to the Hub's own host (not a CDN).
    func request(_ url: String, method: String) throws -> URLRequest {
        guard let target = URL(string: url), target.scheme == "http" || target.scheme == "https" else {
            throw HubError(.unexpected, "'\(url)' is not an http(s) address")
        }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let token = environment.token, Self.host(of: url) == Self.host(of: environment.endpoint) {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    static func host(of url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        return "\(components.scheme ?? "")://\(components.host ?? ""):\(components.port.map(String.init) ?? "")"
    }

    /// `location` resolved against `base` (the Hub answers relative redirects for renamed repositories).
    static func absolute(_ location: String, base: String) -> String {
        if let url = URL(string: location, relativeTo: URL(string: base)) { return url.absoluteString }
        return location
    }

    /// HEAD on the resolve URL of `path`.
    public func metadata(repo: String, revision: String, path: String) async throws -> FileMetadata {
        try checkOnline("\(repo)/\(path)")
        var url = environment.resolveURL(repo: repo, revision: revision, path: path)
        for _ in 0..<5 {
            let response = try await send(try request(url, method: "HEAD"), what: "\(repo)/\(path)")
                        if let error = HubError.from(status: response.status, errorCode: response.header("X-Error-Code"),
                                         errorMessage: response.header("X-Error-Message"), repo: repo, path: path,
                                         revision: revision, environment: environment) {
                throw error
            }
            let etag = (response.header("X-Linked-Etag") ?? response.header("ETag")).map(Self.cleanETag)
            let commit = response.header("X-Repo-Commit")
            if (300..<400).contains(response.status), let location = response.header("Location") {
                let next = Self.absolute(location, base: url)
                if location.hasPrefix("/") || Self.host(of: next) == Self.host(of: url), response.header("X-Linked-Etag") == nil {
                    url = next  // a renamed repository: ask again there
                    continue
                }
                let size = response.header("X-Linked-Size").flatMap { Int64($0) }
                return FileMetadata(commit: commit, etag: etag, size: size, location: next)
            }
            let size = (response.header("X-Linked-Size") ?? response.header("Content-Length")).flatMap { Int64($0) }
            return FileMetadata(commit: commit, etag: etag, size: size, location: url)
        }
        throw HubError(.unexpected, "\(repo)/\(path): too many redirects")
    }

    /// An entry of a repository's tree listing.
    public struct TreeEntry: Sendable, Decodable, Equatable {
        public struct LFS: Sendable, Decodable, Equatable {
            /// The sha256 of the file.
            public var oid: String
            public var size: Int64
        }
        public var type: String
        public var path: String
        public var size: Int64?
        /// The git object id (sha1).
        public var oid: String?
        public var lfs: LFS?

        /// The file as a `RemoteFile` (sha256 for LFS files; small git files are checked by size).
        public var remoteFile: RemoteFile {
            RemoteFile(path: path, bytes: lfs?.size ?? size ?? 0, sha256: lfs?.oid.lowercased())
        }
    }

    /// The commit `revision` of `repo` stands for now (`GET /api/models/{repo}/revision/{revision}`,
    /// its `sha`): every file of one pull is asked for at it.
    public func commit(repo: String, revision: String) async throws -> String {
        try checkOnline("the revision \(revision) of \(repo)")
        let url = "\(environment.endpoint)/api/models/\(repo)/revision/\(HubEnvironment.encode(revision, keepSlash: false))"
        let response = try await send(try request(url, method: "GET"), what: "the revision \(revision) of \(repo)")
        if let error = HubError.from(status: response.status, errorCode: response.header("X-Error-Code"),
                                     errorMessage: response.header("X-Error-Message"), repo: repo, path: nil,
                                     revision: revision, environment: environment) {
            throw error
        }
        struct Info: Decodable { var sha: String }
        do {
            let body = try await response.collect(upTo: 16 << 20)
            let sha = try JSONDecoder().decode(Info.self, from: body).sha
            guard sha.count == 40, sha.allSatisfy(\.isHexDigit) else {
                throw HubError(.unexpected, "\(repo) gave '\(sha)' as the commit of \(revision)")
            }
            return sha
        } catch let error as HubError {
            throw error
        } catch {
            throw HubError(.unexpected, "the model information of \(repo) does not read: \(error)")
        }
    }

    /// `GET /api/models/{repo}/tree/{revision}[/{path}]?recursive=true`, every page (`Link: rel="next"`).
    public func tree(repo: String, revision: String, path: String = "", recursive: Bool = true) async throws -> [TreeEntry] {
        try checkOnline("the file list of \(repo)")
        var url = "\(environment.endpoint)/api/models/\(repo)/tree/\(HubEnvironment.encode(revision, keepSlash: false))"
            + (path.isEmpty ? "" : "/" + HubEnvironment.encode(path, keepSlash: true)) + (recursive ? "?recursive=true" : "")
        var entries: [TreeEntry] = []
        for _ in 0..<10_000 {
            let response = try await send(try request(url, method: "GET"), what: "the file list of \(repo)")
            if let error = HubError.from(status: response.status, errorCode: response.header("X-Error-Code"),
                                         errorMessage: response.header("X-Error-Message"), repo: repo,
                                         path: path.isEmpty ? nil : path, revision: revision, environment: environment) {
                throw error
            }
            let body: Data
            do { body = try await response.collect(upTo: 64 << 20) } catch {
                throw HubError(.network, "the file list of \(repo) broke off: \(error)")
            }
            do {
                entries += try JSONDecoder().decode([TreeEntry].self, from: body)
            } catch {
                throw HubError(.unexpected, "the file list of \(repo) is not the Hub's tree JSON: \(error)")
            }
            guard let next = Self.nextLink(response.header("Link")) else { return entries }
            url = Self.absolute(next, base: url)
        }
        throw HubError(.unexpected, "the file list of \(repo) has too many pages")
    }

    /// The `rel="next"` target of a `Link` header.
    static func nextLink(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close else { continue }
            return String(part[part.index(after: open)..<close])
        }
        return nil
    }

    static func cleanETag(_ value: String) -> String {
        var v = value.trimmingCharacters(in: .whitespaces)
        if v.hasPrefix("W/") { v.removeFirst(2) }
        return v.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// A small file whole (catalogues, configs), at most `limit` bytes.
    public func contents(repo: String, revision: String, path: String, limit: Int = 32 << 20) async throws -> (data: Data, metadata: FileMetadata) {
        let metadata = try await self.metadata(repo: repo, revision: revision, path: path)
        if let size = metadata.size, size > limit {
            throw HubError(.unexpected, "\(repo)/\(path) has \(size) bytes, more than the \(limit) expected")
        }
        let response = try await send(try request(metadata.location, method: "GET"), what: "\(repo)/\(path)")
        if let error = HubError.from(status: response.status, errorCode: response.header("X-Error-Code"),
                                     errorMessage: response.header("X-Error-Message"), repo: repo, path: path,
                                     revision: revision, environment: environment) {
            throw error
        }
        do {
            return (try await response.collect(upTo: limit), metadata)
        } catch {
            throw HubError(.network, "\(repo)/\(path): the transfer broke off (\(error)); try again")
        }
    }

    /// Brings the file at `metadata.location` into `partial` (continuing after the bytes it holds),
    /// `total` bytes in all. A broken transfer or a 408/429/5xx is tried again (up to `attempts` times,
    /// waiting 0.5, 1, 2, 4 s) from where it stopped; a server that answers a Range request with the
    /// whole file (200), or with 416, starts the file over.
    public func download(_ metadata: FileMetadata, what: String, into partial: URL, total: Int64,
                         progress: @escaping @Sendable (Int64) -> Void) async throws {
        try checkOnline(what)
        let fm = FileManager.default
        if !fm.fileExists(atPath: partial.path) { _ = fm.createFile(atPath: partial.path, contents: nil) }
        var failures = 0
        var lastError = ""
        while true {
            try Task.checkCancellation()
            var have = Self.size(of: partial)
            if have > total {
                try Self.truncate(partial)
                have = 0
            }
            if have == total, total > 0 {
                progress(have)
                return
            }
            var request = try request(metadata.location, method: "GET")
            if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
            do {
                let response = try await http.send(request)
                let status = response.status
                switch status {
                case 206:
                    let range = response.header("Content-Range") ?? ""
                    guard range.hasPrefix("bytes \(have)-") else {
                        try Self.truncate(partial)  // not the part asked for: start over
                        continue
                    }
                case 200:
                    if have > 0 { try Self.truncate(partial) }  // Range not honoured: the whole file again
                    have = 0
                case 416:
                    try Self.truncate(partial)  // the partial file is stale
                    failures += 1
                    if failures >= Self.attempts { throw HubError(.network, "\(what): the server keeps refusing the range; try again") }
                    continue
                default:
                    if let error = HubError.from(status: status, errorCode: response.header("X-Error-Code"),
                                                 errorMessage: response.header("X-Error-Message"),
                                                 repo: what, path: nil, revision: "", environment: environment) {
                        if error.kind == .network { throw RetryableTransfer(description: error.message) }
                        throw error
                    }
                    throw HubError(.unexpected, "\(what): unexpected HTTP \(status)")
                }
                let handle = try FileHandle(forWritingTo: partial)
                defer { try? handle.close() }
                try handle.seekToEnd()
                var written = have
                for try await buffer in response.body {
                    // Chunks may wait in the stream's buffer: a cancelled pull stops at once and keeps only
                    // what was written before.
                    try Task.checkCancellation()
                    try handle.write(contentsOf: buffer)
                    written += Int64(buffer.count)
                    progress(written)
                    if written > total { break }
                }
                if written == total { return }
                throw RetryableTransfer(description: "the transfer ended after \(written) of \(total) bytes")
            } catch let error as HubError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures += 1
                lastError = "\(error)"
                if failures >= Self.attempts {
                    throw HubError(.network, "\(what): the download failed \(failures) times (last: \(lastError)); "
                        + "what arrived is kept, so pulling again continues from \(Self.size(of: partial)) bytes")
                }
                try await Task.sleep(for: .milliseconds(500 << (failures - 1)))
            }
        }
    }

    /// A transfer that broke off or a transient answer: tried again.
    struct RetryableTransfer: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ request: URLRequest, what: String) async throws -> HubTransport.Response {
        do {
            return try await http.send(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw HubError(.network, "cannot reach \(environment.endpoint) for \(what): \(error) "
                + "(set HF_ENDPOINT for a mirror, or HF_HUB_OFFLINE=1 to work without network)")
        }
    }

    static func size(of url: URL) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func truncate(_ url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
    }
}
