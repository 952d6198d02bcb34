import Foundation
import Hummingbird
import WarbleSpeech

/// `POST /v1/audio/voices` (multipart: `name`, `file`, `model`, `transcript`, `transcribe`, `consent`,
/// `budget` in seconds, `seed`, `keep_stock`; for NeuTTS `codes`, the reference's NeuCodec codes, instead of `file`; with
/// `Accept: text/event-stream`, progress events and then the voice) and `DELETE /v1/audio/voices/{id}`: the voice library,
/// changed over HTTP. Both need the server's API key: without `--api-key` they are refused, so that nobody who can
/// reach the port adds or removes voices.
struct VoiceRoutes: Sendable {
    /// The longest Kokoro search one request may ask for.
    static let maximumBudget = 3600.0
    static let defaultBudget = 600.0

    let backend: (any VoiceLibraryBackend)?
    let configuration: ServerConfiguration
    let admission: AdmissionControl

    func add(_ request: Request, context: some RequestContext) async throws -> Response {
        let backend = try available()
        var request = request
        let form = try await MultipartForm.read(&request, limit: configuration.maxUploadBytes)
        let upload = try Self.upload(form)
        let permit = try await admission.acquire(waitingAtMost: configuration.requestTimeLimit)
        context.logger.info("voice clone started", metadata: ["name": "\(upload.name)", "bytes": "\(upload.clip.count)"])
        if request.headers[.accept]?.contains("text/event-stream") ?? false {
            return streamed(upload, backend: backend, permit: permit, request: request)
        }
        let result: VoiceUploadResult
        do {
            result = try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await backend.addVoice(upload, progress: { _ in })
            }
        } catch {
            await permit.release(error is CancellationError ? .cancelled : .refused)
            throw error is CancellationError ? error : APIError(translating: error).closingConnection()
        }
        await permit.release(.completed)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.connection] = "close"
        return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(result))))
    }

    /// The clone as server-sent events (`Accept: text/event-stream`): `voice.progress` events as it goes, then
    /// `voice.created` with the answer's JSON as `voice`, or an `error` event. A client that hangs up cancels it.
    private func streamed(_ upload: VoiceUpload, backend: any VoiceLibraryBackend, permit: AdmissionPermit,
                          request: Request) -> Response {
        struct Created: Encodable { var type = "voice.created"; var voice: VoiceUploadResult }
        let watch = HangUpWatch(request)
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "close"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Progress is dropped, never queued without bound, when the client reads slower than the clone reports.
            let (progress, reporter) = AsyncStream<VoiceCloneProgress>.makeStream(bufferingPolicy: .bufferingNewest(32))
            let clone = Task {
                defer { reporter.finish() }
                return try await watch.run { try await backend.addVoice(upload, progress: { reporter.yield($0) }) }
            }
            var outcome = AdmissionControl.Outcome.completed
            do {
                for await event in progress { try await writer.write(ByteBuffer(bytes: SpeechStreamFraming.sse(event))) }
                let result = try await clone.value
                try await writer.write(ByteBuffer(bytes: SpeechStreamFraming.sse(Created(voice: result))))
            } catch is CancellationError {
                outcome = .cancelled
            } catch {
                clone.cancel()
                outcome = watch.hungUp ? .cancelled : .refused
                try? await writer.write(ByteBuffer(bytes: SpeechStreamFraming.errorEvent(APIError(translating: error))))
            }
            await watch.stop()
            await permit.release(outcome)
            try await writer.finish(nil)
        })
    }

    func remove(_ id: String) async throws -> Response {
        let backend = try available()
        try await backend.removeVoice(id)
        struct Deleted: Encodable { var id: String; var object = "voice"; var deleted = true }
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(Deleted(id: id)))))
    }

    /// `POST /v1/audio/voices/{id}/rename` with JSON `{"name": NEW}`.
    func rename(_ id: String, _ request: Request) async throws -> Response {
        let backend = try available()
        struct Body: Decodable { var name: String }
        var request = request
        let data = try await request.collectJSONBody(limit: 64 << 10)
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else {
            throw APIError.badRequest("the body must be JSON {\"name\": NEW_NAME}", param: "name", code: "invalid_value")
        }
        let newName = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        try await backend.renameVoice(id, to: newName)
        struct Renamed: Encodable { var id: String; var object = "voice"; var renamedFrom: String }
        return APIJSON.response(Renamed(id: newName, renamedFrom: id))
    }

    /// `GET /v1/audio/voices/{id}/export`: the voice's file, as a download.
    func export(_ id: String) async throws -> Response {
        let data = try await available().exportVoice(id)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentDisposition] = "attachment; filename=\"\(id).warble-voice.json\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `POST /v1/audio/voices/import` (multipart: `file`, an exported voice; `name` to rename it; `replace`).
    func importVoice(_ request: Request) async throws -> Response {
        let backend = try available()
        var request = request
        let form = try await MultipartForm.read(&request, limit: min(configuration.maxUploadBytes, Self.maximumVoiceFile))
        guard let file = form.part("file"), !file.body.isEmpty else {
            throw APIError.badRequest("the form has no 'file' field: a voice exported by warble voice export or GET "
                + "/v1/audio/voices/{id}/export", param: "file", code: "missing_required_parameter")
        }
        let name = try form.text("name")?.trimmingCharacters(in: .whitespacesAndNewlines)
        let replace = try form.text("replace").map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
        let result = try await backend.importVoice(file.body, name: name?.isEmpty == false ? name : nil, replacing: replace)
        return Response(status: .created, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(result))))
    }

    /// The largest voice file taken (`VoiceProfileFile.maximumBytes`).
    static let maximumVoiceFile = 64 << 20

    private func available() throws -> any VoiceLibraryBackend {
        guard let key = configuration.apiKey, !key.isEmpty else {
            throw APIError(.forbidden, "changing the voice library needs the server's API key: start it with --api-key",
                           code: "api_key_required")
        }
        guard let backend else { throw APIError(.notImplemented, "this server keeps no voice library", code: "not_supported") }
        return backend
    }

    /// The form's fields, checked.
    static func upload(_ form: MultipartForm) throws -> VoiceUpload {
        guard let name = try form.text("name")?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else {
            throw APIError.badRequest("the form has no 'name' field: the new voice's name", param: "name",
                                      code: "missing_required_parameter")
        }
        let codes = form.part("codes")
        if codes != nil, form.part("file") != nil {
            throw APIError.badRequest("give the clip ('file') or its NeuTTS codes ('codes'), not both", param: "codes", code: "invalid_value")
        }
        guard let file = codes ?? form.part("file"), !file.body.isEmpty else {
            throw APIError.badRequest("the form has no 'file' field with the clip", param: "file", code: "missing_required_parameter")
        }
        func field(_ key: String) throws -> String? {
            guard let text = try form.text(key)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return text
        }
        func flag(_ key: String) throws -> Bool {
            guard let text = try field(key)?.lowercased() else { return false }
            guard text == "true" || text == "false" else {
                throw APIError.badRequest("\(key) '\(text)' is not true or false", param: key, code: "invalid_value")
            }
            return text == "true"
        }
        let transcribe = try flag("transcribe")
        var budget = defaultBudget
        if let text = try field("budget") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 1, seconds <= maximumBudget else {
                throw APIError.badRequest("budget '\(text)' is not a number of seconds between 1 and \(Int(maximumBudget))",
                                          param: "budget", code: "invalid_value")
            }
            budget = seconds
        }
        var seed: UInt64 = 1
        if let text = try field("seed") {
            guard let value = UInt64(text) else {
                throw APIError.badRequest("seed '\(text)' is not a whole number ≥ 0", param: "seed", code: "invalid_value")
            }
            seed = value
        }
        let transcript = try field("transcript")
        if codes != nil, transcript == nil {
            throw APIError.badRequest("a voice given by its codes needs a 'transcript' field: what the reference clip says",
                                      param: "transcript", code: "missing_required_parameter")
        }
        return VoiceUpload(name: name, clip: file.body, clipName: file.filename ?? "the uploaded file", model: try field("model"),
                           transcript: transcript, transcribe: transcribe, consent: try field("consent"),
                           budgetSeconds: budget, seed: seed, keepStock: try flag("keep_stock"), isCodes: codes != nil)
    }
}

extension MultipartForm {
    /// The request's multipart body, within `limit` bytes.
    static func read(_ request: inout Request, limit: Int) async throws -> MultipartForm {
        let tooLarge = APIError(.contentTooLarge, "the upload is larger than the \(limit)-byte limit "
            + "(warble serve --max-upload-bytes)", param: "file", code: "request_too_large")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        let boundary = try MultipartForm.boundary(contentType: request.headers[.contentType])
        let body = try await request.collectBody(limit: limit, tooLarge: tooLarge)
        return try MultipartForm(body: Array(buffer: body), boundary: boundary)
    }
}
