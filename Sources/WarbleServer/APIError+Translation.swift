import Foundation
import Hummingbird
import NIOHTTP1
import WarbleSpeech
import WarbleText

extension APIError {
    /// The OpenAI-shaped answer for anything a route throws: our own errors keep their meaning
    /// (bad SSML is 400 with its line and column, an unknown voice 404); only real faults become 500.
    init(translating error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as ModelError:
            switch error.kind {
            case .badInput: self = .badRequest(error.message, param: "input", code: "invalid_input")
            case .unknownVoice: self = APIError(.notFound, error.message, param: "voice", code: "voice_not_found")
            case .badModel, .failed: self = .internalError(error.message)
            }
        case let error as TextError:
            switch error.kind {
            case .ssml: self = .badRequest(error.description, param: "input", code: "invalid_ssml")
            case .phonemizer, .chunking: self = .badRequest(error.description, param: "input", code: "invalid_input")
            case .tokenizerFile, .unknownToken, .lexicon: self = .internalError(error.description)
            }
        case let error as MultipartError:
            self = .badRequest("the request body is not a valid multipart/form-data upload: \(error.message)",
                               code: "invalid_multipart")
        case let error as DecodingError:
            self = .badRequest("the request body is not a valid speech request: \(Self.describe(error))",
                               code: "invalid_json")
        case let error as HTTPParserError:
            // A malformed request (an unknown Transfer-Encoding, a chunk size that is not a number): the client's fault.
            self = .badRequest("the request is not valid HTTP: \(error)", code: "invalid_http")
        case let error as HTTPError:
            self = APIError(error.status, error.body ?? Self.reason(error.status),
                            type: error.status.code >= 500 ? "server_error" : "invalid_request_error",
                            code: error.status == .notFound ? "not_found" : nil)
        case let error as any HTTPResponseError:
            self = APIError(error.status, Self.reason(error.status),
                            type: error.status.code >= 500 ? "server_error" : "invalid_request_error")
        default:
            self = .internalError("internal error: \(error)")
        }
    }

    private static func reason(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "no such route"
        case .methodNotAllowed: "method not allowed on this route"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "" : " at '\(keys)'"
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type) value\(path(context))"
        case .keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        case .dataCorrupted(let context): return context.debugDescription + path(context)
        @unknown default: return "\(error)"
        }
    }
}

/// Turns every error thrown below it, including the router's own 404 and 413, into OpenAI's JSON shape.
struct OpenAIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is CancellationError {
            throw CancellationError()  // the client went away: no one to answer (the route logged it)
        } catch {
            let translated = APIError(translating: error)
            if translated.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(error)"])
            } else {
                context.logger.info("request refused", metadata: ["status": "\(translated.status.code)",
                                                                   "error": "\(translated.message)"])
            }
            return try translated.response(from: request, context: context)
        }
    }
}
