import Foundation
import Hummingbird
import WarbleSpeech

/// What `POST /v1/text/translations` translates with (the engine: the installed model for the pair).
public protocol TranslationBackend: Sendable {
    /// `text` in `pair.target`, and the id of the model that translated it.
    func translate(_ text: String, pair: LanguagePair) async throws -> (text: String, model: String)
}

/// No translation models: the route answers 404.
public struct NoTranslationBackend: TranslationBackend {
    public init() {}
    public func translate(_ text: String, pair: LanguagePair) async throws -> (text: String, model: String) {
        throw APIError(.notFound, "no translation model is installed (\(ModelDefaults.pullCommand(\.translation)))",
                       param: "target", code: "model_not_found")
    }
}

/// `POST /v1/text/translations` (extension): JSON `{"text", "source" (default "en"), "target"}` →
/// `{"text", "source", "target", "model"}`; the body and input limits, the admission slots, the time
/// limit and the error shapes of the other routes.
struct TextTranslationRoute: Sendable {
    let backend: any TranslationBackend
    let configuration: ServerConfiguration
    let admission: AdmissionControl

    struct Body: Decodable {
        var text: String
        var source: String?
        var target: String
    }

    struct Answer: Encodable {
        var text: String
        var source: String
        var target: String
        var model: String
    }

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        let deadline = ContinuousClock.now + configuration.requestTimeLimit
        var request = request
        let body = try await decode(&request)
        guard !body.text.allSatisfy(\.isWhitespace) else {
            throw APIError.badRequest("text is empty: give the text to translate", param: "text", code: "invalid_input")
        }
        guard body.text.count <= configuration.maxInputCharacters else {
            throw APIError.badRequest("text has \(body.text.count) characters; the limit is \(configuration.maxInputCharacters)",
                                      param: "text", code: "string_above_max_length")
        }
        let source = body.source ?? "en"
        guard !source.isEmpty, !body.target.isEmpty else {
            throw APIError.badRequest("source and target are language codes (en, pt)", param: body.target.isEmpty ? "target" : "source",
                                      code: "invalid_value")
        }
        let permit = try await admission.acquire(waitingAtMost: deadline - .now)
        let limit = configuration.requestTimeLimit
        do {
            let pair = LanguagePair(source: source, target: body.target)
            let backend = self.backend
            let result = try await withThrowingTaskGroup(of: (text: String, model: String)?.self) { group in
                group.addTask { try await backend.translate(body.text, pair: pair) }
                group.addTask {
                    try await Task.sleep(until: deadline)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw APIError(.serviceUnavailable, "the translation did not finish within the \(limit) time limit",
                                   type: "server_error", code: "timeout")
                }
                return result
            }
            await permit.release(.completed)
            let answer = Answer(text: result.text, source: source, target: body.target, model: result.model)
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: APIJSON.encode(answer))))
        } catch {
            let translated = Self.translate(error)
            await permit.release(error is CancellationError ? .cancelled : translated.status.code >= 500 ? .failed : .refused)
            throw translated
        }
    }

    /// No model for the pair is 404; the rest as the other routes translate them.
    static func translate(_ error: any Error) -> APIError {
        if let error = error as? ModelError, error.kind == .badModel, error.message.hasPrefix("no installed model translates") {
            return APIError(.notFound, error.message, param: "target", code: "model_not_found")
        }
        if let error = error as? ModelError, error.kind == .badInput {
            return .badRequest(error.message, param: "text", code: "invalid_input")
        }
        return APIError(translating: error)
    }

    private func decode(_ request: inout Request) async throws -> Body {
        let buffer = try await request.collectJSONBody(limit: configuration.maxBodyBytes)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(translating: error)
        }
    }
}
