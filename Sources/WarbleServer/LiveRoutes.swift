import Foundation
import Hummingbird
import WarbleSpeech

/// Live captions over plain HTTP (a browser cannot stream an upload over HTTP/1.1, and a WebSocket would
/// need the read timeouts shed): `POST /v1/audio/live` opens a session with its options; the client
/// `POST`s 16 kHz mono 16-bit little-endian PCM to `/v1/audio/live/{id}/audio` as it captures it, reads
/// `GET /v1/audio/live/{id}/events` (server-sent events, `LiveEvents`) and ends the input with
/// `DELETE /v1/audio/live/{id}` (the speech in progress is still recognised, then `done`, and the session is
/// gone once its events are read). A reader that hangs up ends the session; so does --idle-timeout without
/// audio or a reader.
struct LiveRoutes: Sendable {
    /// The largest audio chunk (2 s of 16 kHz 16-bit mono).
    static let maxChunkBytes = 64 << 10

    let backend: any LiveRecognitionBackend
    let translator: any TranslationBackend
    let catalog: RecognitionCatalog
    let configuration: ServerConfiguration
    let sessions: LiveSessions

    struct Options: Decodable {
        var model: String?
        var language: String?
        var translateTo: String?

        enum CodingKeys: String, CodingKey {
            case model, language
            case translateTo = "translate_to"
        }
    }

    struct Opened: Encodable {
        var id: String
        var object = "live.session"
        var model: String
        var language: String?
        var translateTo: String?
        var sampleRate = LiveSession.sampleRate
        var format = "s16le"
    }

    struct Ended: Encodable {
        var id: String
        var object = "live.session"
        var deleted = true
        var seconds: Double
    }

    struct Offer: Encodable {
        struct Model: Encodable {
            var id: String
            var languages: [String]
        }
        var object = "live.options"
        var models: [Model]
        var defaultModel: String?
        var sampleRate = LiveSession.sampleRate
        var format = "s16le"
        var maxChunkBytes = LiveRoutes.maxChunkBytes
        var sessions: Int
        var maxSessions: Int
    }

    /// What a session can be opened with: the recognition models (the one `whisper-1` stands for first), the
    /// audio format, and the sessions open.
    func offer() async -> Response {
        let installed = await catalog.backend.recognitionModels()
        let preferred = configuration.defaultTranscriptionModel
        let models = installed.filter { $0.id == preferred } + installed.filter { $0.id != preferred }
        let offer = Offer(models: models.map { .init(id: $0.id, languages: $0.languages) },
                          defaultModel: models.first?.id, sessions: await sessions.count, maxSessions: sessions.limit)
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: APIJSON.encode(offer))))
    }

    func open(_ request: Request) async throws -> Response {
        var request = request
        let options: Options
        do {
            options = try JSONDecoder().decode(Options.self, from: Data(buffer: try await request.collectJSONBody(limit: configuration.maxBodyBytes)))
        } catch let error as DecodingError {
            throw APIError(translating: error)
        }
        let language = try Self.code(options.language, param: "language")
        let target = try Self.code(options.translateTo, param: "translate_to")
        let model = try await catalog.model(options.model ?? RecognitionCatalog.alias, task: .transcribe, language: language)
        try await sessions.reserve()
        do {
            let pair = target.map { LanguagePair(source: language ?? model.languages.first ?? "en", target: $0) }
            if let pair {  // loaded now (and a pair without a model refused) rather than at the first line
                do { _ = try await translator.translate("Hello.", pair: pair) } catch { throw TextTranslationRoute.translate(error) }
            }
            let live = try await backend.liveTranscriber(model: model.id, options: LiveRecognitionOptions(
                transcription: TranscriptionOptions(language: language), partialInterval: 1))
            let settings = LiveSession.Settings(model: model.id, language: language, translation: pair)
            let session = LiveSession(id: "live_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
                                      settings: settings, transcriber: live, translator: translator,
                                      maxSeconds: configuration.maxUploadSeconds)
            await sessions.add(session)
            let opened = Opened(id: session.id, model: model.id, language: language, translateTo: target)
            return Response(status: .created, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: APIJSON.encode(opened))))
        } catch {
            await sessions.release()
            throw APIError(translating: error)
        }
    }

    func audio(_ request: Request, id: String) async throws -> Response {
        let session = try await sessions.session(id)
        var request = request
        let body = try await request.collectBody(limit: Self.maxChunkBytes, tooLarge: APIError(
            .contentTooLarge, "an audio chunk is at most \(Self.maxChunkBytes) bytes (2 s): send smaller chunks", code: "request_too_large"))
        guard body.readableBytes > 0, body.readableBytes % 2 == 0 else {
            throw APIError.badRequest("an audio chunk is 16 kHz mono 16-bit little-endian PCM: a whole, non-zero number of "
                + "2-byte samples, at most \(Self.maxChunkBytes) bytes; got \(body.readableBytes) bytes", code: "invalid_audio")
        }
        let samples = body.withUnsafeReadableBytes { raw in
            (0..<raw.count / 2).map { Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
        }
        try await session.feed(samples)
        return Response(status: .noContent)
    }

    func events(_ request: Request, id: String) async throws -> Response {
        let session = try await sessions.session(id)
        let events = try await session.takeEvents()
        let sessions = self.sessions
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "close"],
                        body: ResponseBody { writer in
            // The session is gone before the stream's end reaches the client.
            let close = { @Sendable in
                await sessions.end(id)
                await session.cancel(reason: nil)
            }
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    for await event in events {
                        try Task.checkCancellation()
                        try await writer.write(ByteBuffer(bytes: event))
                    }
                }
            } catch {
                await close()
                throw error
            }
            await close()
            try await writer.finish(nil)
        })
    }

    func end(id: String) async throws -> Response {
        let session = try await sessions.finish(id)
        let ended = Ended(id: id, seconds: await session.seconds)
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: APIJSON.encode(ended))))
    }

    /// A language code as given (nil when absent), or 400.
    private static func code(_ value: String?, param: String) throws -> String? {
        guard let value else { return nil }
        guard (2...8).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else {
            throw APIError.badRequest("\(param) is a language code (en, pt, de), got '\(value.prefix(40))'", param: param, code: "invalid_value")
        }
        return value
    }
}
