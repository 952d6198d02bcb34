import Foundation
import Hummingbird
import WarbleSpeech

/// `GET /v1/history?limit=&after=` (a page of sessions, newest first, as OpenAI lists them: `data`,
/// `first_id`, `last_id`, `has_more`; with `q`, those whose texts hold every word, as `warble history search`), `GET /v1/history/{id}`, `GET /v1/history/{id}/export` (the session as
/// a ZIP archive, streamed from a temporary file) and `DELETE /v1/history/{id}`. The history holds what
/// people said: every route needs the server's API key, and without `--api-key` they are refused.
struct HistoryRoutes: Sendable {
    static let defaultLimit = 20
    static let maximumSearchCharacters = 1000
    static let limits = 1...100
    /// The size of each piece of an archive sent.
    static let chunkBytes = 1 << 16

    let backend: (any HistoryBackend)?
    let configuration: ServerConfiguration

    func list(_ request: Request) async throws -> Response {
        let backend = try available()
        let query = request.uri.queryParameters
        var limit = Self.defaultLimit
        if let text = query["limit"].map(String.init) {
            guard let value = Int(text), Self.limits.contains(value) else {
                throw APIError.badRequest("limit must be a whole number from \(Self.limits.lowerBound) to \(Self.limits.upperBound), got '\(text)'",
                                          param: "limit", code: "invalid_value")
            }
            limit = value
        }
        var after: Int64?
        if let text = query["after"].map(String.init) {
            guard let value = Int64(text), value > 0 else {
                throw APIError.badRequest("after must be a session id (a positive whole number), got '\(text)'",
                                          param: "after", code: "invalid_value")
            }
            after = value
        }
        var search: String?
        if let text = query["q"].map(String.init) {
            guard text.count <= Self.maximumSearchCharacters else {
                throw APIError.badRequest("q is longer than \(Self.maximumSearchCharacters) characters", param: "q", code: "invalid_value")
            }
            guard after == nil else {
                throw APIError.badRequest("q and after cannot be combined: a search answers one page", param: "after", code: "invalid_value")
            }
            search = text
        }
        // One more than asked says whether another page follows.
        let items: [HistoryItem]
        if let search {
            items = try await backend.search(search, limit: limit + 1)
        } else {
            items = try await backend.sessions(limit: limit + 1, after: after)
        }
        let page = items.prefix(limit)
        var body = Data(#"{"object":"list","data":["#.utf8)
        for (index, item) in page.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(item.json)
        }
        func id(_ item: HistoryItem?) -> String { item.map { String($0.id) } ?? "null" }
        body.append(Data(#"],"first_id":\#(id(page.first)),"last_id":\#(id(page.last)),"has_more":\#(items.count > limit)}"#.utf8))
        return Self.json(body)
    }

    func show(_ id: String) async throws -> Response {
        let backend = try available()
        guard let item = try await backend.session(id: try Self.sessionID(id)) else { throw Self.notFound(id) }
        return Self.json(item.json)
    }

    func export(_ id: String) async throws -> Response {
        let backend = try available()
        let number = try Self.sessionID(id)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("warble-history-export-\(UUID().uuidString)", isDirectory: true)
        let file = directory.appendingPathComponent("session-\(number).zip")
        let handle: FileHandle
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard try await backend.export(id: number, to: file) else { throw Self.notFound(id) }
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // The archive is on disk: it is sent a piece at a time, and removed once sent (or the client left).
        try? FileManager.default.removeItem(at: directory)
        var headers: HTTPFields = [.contentType: "application/zip", .cacheControl: "no-store"]
        headers[.contentDisposition] = "attachment; filename=\"warble-session-\(number).zip\""
        if let size = try? handle.seekToEnd() {
            headers[.contentLength] = String(size)
            try handle.seek(toOffset: 0)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { try? handle.close() }
            while let piece = try handle.read(upToCount: Self.chunkBytes), !piece.isEmpty {
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        })
    }

    func delete(_ id: String) async throws -> Response {
        let backend = try available()
        let number = try Self.sessionID(id)
        guard try await backend.delete(id: number) else { throw Self.notFound(id) }
        return Self.json(Data(#"{"id":\#(number),"object":"history.session","deleted":true}"#.utf8))
    }

    private func available() throws -> any HistoryBackend {
        guard let key = configuration.apiKey, !key.isEmpty else {
            throw APIError(.forbidden, "the history needs the server's API key: start it with --api-key", code: "api_key_required")
        }
        guard let backend else {
            throw APIError(.notImplemented, "this server keeps no history: start it with --history", code: "not_supported")
        }
        return backend
    }

    static func sessionID(_ text: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest("'\(text)' is not a session id (a positive whole number)", param: "id", code: "invalid_value")
        }
        return id
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "the history has no session \(id)", code: "session_not_found")
    }

    static func json(_ body: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
