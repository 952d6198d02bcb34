import Foundation
import Hummingbird

/// `GET /v1/models/available` (what can be pulled, with size and licence), `POST /v1/models/pull` (JSON
/// `{"model": REFERENCE}`, answered with server-sent events: progress, then done or error) and
/// `DELETE /v1/models/{id}`. Pulling and removing need the server's API key: without `--api-key` they are
/// refused, as the voice library's changes are.
struct ModelRoutes: Sendable {
    /// The longest reference a pull takes (the catalogue's are far shorter).
    static let maximumReference = 512

    let backend: (any ModelLibraryBackend)?
    let configuration: ServerConfiguration
    /// The references being pulled now: a second pull of one of them is refused (409) rather than queued.
    let inFlight = PullsInFlight()

    struct PullBody: Decodable {
        var model: String
    }

    struct ListObject: Encodable {
        var object = "list"
        var data: [PullableModel]
    }

    struct ProgressEvent: Encodable {
        var type = "model.pull.progress"
        var model: String
        var file: String
        var fileBytes: Int64
        var fileTotal: Int64
        var bytes: Int64
        var total: Int64
    }

    struct DoneEvent: Encodable {
        var type = "model.pull.done"
        var model: String
        var id: String
        var bytes: Int64
        var alreadyInstalled: Bool
    }

    struct Deleted: Encodable {
        var id: String
        var object = "model"
        var deleted = true
    }

    func available() async throws -> Response {
        guard let backend else { throw Self.notSupported }
        return APIJSON.response(ListObject(data: try await backend.pullableModels()))
    }

    func pull(_ request: Request, context: some RequestContext) async throws -> Response {
        let backend = try changing()
        var request = request
        let reference = try await decode(&request).model.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reference.isEmpty else {
            throw APIError.badRequest("model is empty: give what to pull, a reference from GET /v1/models/available",
                                      param: "model", code: "invalid_value")
        }
        guard reference.count <= Self.maximumReference, !reference.contains(where: { $0.isNewline }) else {
            throw APIError.badRequest("model is not a reference to pull (one line of at most \(Self.maximumReference) characters)",
                                      param: "model", code: "invalid_value")
        }
        // Refused with its status while the answer can still carry one; the ticket itself is taken where the pull runs,
        // in the answer's body, so that an answer whose body never runs (a client gone first) leaves nothing marked.
        guard !inFlight.isPulling(reference) else { throw Self.alreadyPulling(reference) }
        let inFlight = self.inFlight
        let logger = context.logger
        logger.info("model pull started", metadata: ["model": "\(reference)"])
        let (events, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            guard let ticket = inFlight.begin(reference) else {  // another pull of it began since the check above
                try await writer.write(ByteBuffer(bytes: SpeechStreamFraming.errorEvent(Self.alreadyPulling(reference))))
                try await writer.finish(nil)
                return
            }
            defer { inFlight.end(reference, ticket) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let meter = PullMeter()
                    do {
                        let pulled = try await backend.pullModel(reference) { progress in
                            guard meter.worthSending(progress) else { return }
                            continuation.yield(Self.event(ProgressEvent(
                                model: reference, file: progress.file, fileBytes: progress.fileBytes, fileTotal: progress.fileTotal,
                                bytes: progress.bytes, total: progress.total)))
                        }
                        continuation.yield(Self.event(DoneEvent(model: reference, id: pulled.id, bytes: pulled.bytes,
                                                                alreadyInstalled: pulled.alreadyInstalled)))
                        logger.info("model pull finished", metadata: ["model": "\(reference)", "id": "\(pulled.id)"])
                    } catch is CancellationError {
                        logger.info("client went away; model pull cancelled", metadata: ["model": "\(reference)"])
                    } catch {
                        let answer = APIError(translating: error)
                        logger.notice("model pull failed", metadata: ["model": "\(reference)", "error": "\(answer.message)"])
                        continuation.yield(SpeechStreamFraming.errorEvent(answer))
                    }
                    // Ended before the client reads the stream's end: a pull it starts then is not refused.
                    inFlight.end(reference, ticket)
                    continuation.finish()
                }
                // A client that goes away fails the write: the group's pull is cancelled with it.
                for await event in events { try await writer.write(ByteBuffer(bytes: event)) }
                try await writer.finish(nil)
            }
        })
    }

    static func alreadyPulling(_ reference: String) -> APIError {
        APIError(.conflict, "\(reference) is being pulled already: wait for that pull to end", param: "model", code: "pull_in_progress")
    }

    func remove(_ id: String) async throws -> Response {
        let backend = try changing()
        // An id names a folder of WARBLE_HOME/models: only plain names reach the backend.
        guard Self.isPlainID(id) else {
            throw APIError.badRequest("'\(id.prefix(80))' is not a model id (letters, digits, '.', '_', '-' and ':', not starting with '.')",
                                      param: "id", code: "invalid_value")
        }
        try await backend.removeModel(id)
        return APIJSON.response(Deleted(id: id))
    }

    /// At most 128 characters of letters, digits, `.`, `_`, `-` and `:`, not starting with `.`: never a path.
    static func isPlainID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128, !id.hasPrefix(".") else { return false }
        return id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-:".unicodeScalars.contains($0)) }
    }

    private func changing() throws -> any ModelLibraryBackend {
        guard let key = configuration.apiKey, !key.isEmpty else {
            throw APIError(.forbidden, "pulling and removing models needs the server's API key: start it with --api-key",
                           code: "api_key_required")
        }
        guard let backend else { throw Self.notSupported }
        return backend
    }

    static let notSupported = APIError(.notImplemented, "this server does not pull or remove models", code: "not_supported")

    static func event(_ payload: some Encodable) -> Data { SpeechStreamFraming.sse(payload) }

    private func decode(_ request: inout Request) async throws -> PullBody {
        let buffer = try await request.collectJSONBody(limit: configuration.maxBodyBytes)
        do {
            return try JSONDecoder().decode(PullBody.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError.badRequest(#"the request body is not a pull request ({"model": REFERENCE}): "# + APIError.describe(error),
                                      code: "invalid_json")
        }
    }
}

/// The references being pulled through this server now.
final class PullsInFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var pulls: [String: Int] = [:]
    private var issued = 0

    func isPulling(_ reference: String) -> Bool { lock.withLock { pulls[reference] != nil } }

    /// A ticket for `end`, or nil when `reference` is being pulled already.
    func begin(_ reference: String) -> Int? {
        lock.withLock {
            guard pulls[reference] == nil else { return nil }
            issued += 1
            pulls[reference] = issued
            return issued
        }
    }

    /// Ends the pull `ticket` names (once; a later pull of the same reference is left alone).
    func end(_ reference: String, _ ticket: Int) {
        lock.withLock { if pulls[reference] == ticket { pulls[reference] = nil } }
    }
}

/// Which progress reports go to the client: a new file, each whole per cent of the total, a file's end.
final class PullMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var file = ""
    private var percent = -1

    func worthSending(_ progress: ModelPullProgress) -> Bool {
        lock.withLock {
            let now = progress.total > 0 ? Int(100 * progress.bytes / progress.total) : 0
            let fileDone = progress.fileTotal > 0 && progress.fileBytes == progress.fileTotal
            guard progress.file != file || now != percent || fileDone else { return false }
            file = progress.file
            percent = now
            return true
        }
    }
}
