import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleSpeech
@testable import WarbleServer

/// `POST /v1/text/translations` over a fake translator: JSON in and out, the input limits, no model
/// for the pair is 404, errors in OpenAI's shape.
@Suite(.timeLimit(.minutes(1))) struct TextTranslationRouteTests {
    struct Reverser: TranslationBackend {
        func translate(_ text: String, pair: LanguagePair) async throws -> (text: String, model: String) {
            guard pair.source == "en", pair.target.hasPrefix("pt") else {
                throw ModelError(.badModel, "no installed model translates \(pair) (installed translation models: fake (en→pt))")
            }
            return (String(text.reversed()), "fake-enpt")
        }
    }

    func post(_ client: some TestClientProtocol, _ fields: [String: any Sendable]) async throws -> TestResponse {
        try await client.execute(uri: "/v1/text/translations", method: .post, headers: [.contentType: "application/json"], body: json(fields))
    }

    @Test func translatesAndRefusesWhatTheOtherRoutesRefuse() async throws {
        let server = SpeechServer(backend: FakeSpeechBackend(), translator: Reverser(), configuration: .init(maxInputCharacters: 20))
        try await Application(router: server.makeRouter()).test { client in
            let ok = try await post(client, ["text": "Hello.", "target": "pt"])
            #expect(ok.status == .ok)
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: ok.body)) as? [String: String]
            #expect(answer == ["text": ".olleH", "source": "en", "target": "pt", "model": "fake-enpt"])

            let pair = try await post(client, ["text": "Hello.", "source": "en", "target": "de"])
            #expect(pair.status == .notFound)
            #expect(try ErrorBody(pair).error.code == "model_not_found")
            #expect(try ErrorBody(pair).error.message.contains("en→de"))

            let empty = try await post(client, ["text": "  ", "target": "pt"])
            #expect(empty.status == .badRequest)
            #expect(try ErrorBody(empty).error.code == "invalid_input")
            let long = try await post(client, ["text": String(repeating: "a", count: 21), "target": "pt"])
            #expect(long.status == .badRequest)
            #expect(try ErrorBody(long).error.code == "string_above_max_length")
            let missing = try await post(client, ["text": "Hello."])
            #expect(missing.status == .badRequest)
            #expect(try ErrorBody(missing).error.code == "invalid_json")
        }
        await server.admission.waitUntil(active: 0)
    }

    @Test func withoutATranslatorItIs404() async throws {
        try await withServer { client in
            let response = try await post(client, ["text": "Hello.", "target": "pt"])
            #expect(response.status == .notFound)
            #expect(try ErrorBody(response).error.message.contains("no translation model is installed"))
        }
    }
}
