import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer

@Suite(.timeLimit(.minutes(1))) struct SafetyTests {
    @Test func loopbackIsTheDefaultAndOtherAddressesNeedAKey() throws {
        #expect(ServerConfiguration().host == "127.0.0.1")
        #expect(throws: Never.self) { try ServerConfiguration().validate() }
        #expect(throws: Never.self) { try ServerConfiguration(host: "::1").validate() }
        let error = #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(host: "0.0.0.0").validate() }
        #expect(error?.message.contains("API key") == true)
        #expect(throws: Never.self) { try ServerConfiguration(host: "0.0.0.0", apiKey: "k").validate() }
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(maxConcurrentSyntheses: 0).validate() }
    }

    @Test func apiKeyIsRequiredWhenSet() async throws {
        try await withServer(configuration: .init(apiKey: "sesame")) { client in
            let missing = try await client.execute(uri: "/v1/models", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(try ErrorBody(missing).error.code == "invalid_api_key")
            let wrong = try await client.execute(uri: "/v1/models", method: .get, headers: [.authorization: "Bearer sesamf"])
            #expect(wrong.status == .unauthorized)
            let speech = try await client.speech(["model": "tts-1", "input": "Hi."], headers: [.authorization: "Bearer x"])
            #expect(speech.status == .unauthorized)
            let right = try await client.execute(uri: "/v1/models", method: .get, headers: [.authorization: "Bearer sesame"])
            #expect(right.status == .ok)
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test func constantTimeComparison() {
        typealias M = APIKeyMiddleware<BasicRequestContext>
        #expect(M.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!M.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!M.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!M.constantTimeEqual([], Array("a".utf8)))
    }

    @Test func fullQueueIs429WithRetryAfter() async throws {
        let backend = FakeSpeechBackend(holdAfter: 0)  // the first request runs until the gate opens
        let server = SpeechServer(backend: backend, configuration: .init(maxConcurrentSyntheses: 1, maxQueuedRequests: 1))
        try await Application(router: server.makeRouter()).test { client in
            let slow = ["model": "tts-1", "input": "One. Two.", "response_format": "wav"]
            async let first = client.speech(slow)
            await server.admission.waitUntil(active: 1)
            async let second = client.speech(slow)
            await server.admission.waitUntil(queued: 1)
            let third = try await client.speech(slow)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] == "1")
            #expect(try ErrorBody(third).error.code == "rate_limit_exceeded")
            backend.gate.open()
            #expect(try await first.status == .ok)
            #expect(try await second.status == .ok)  // waited in the queue, then ran
        }
        #expect(await server.admission.counters == .init(completed: 2, rejected: 1))
        #expect(await server.admission.active == 0)
    }

    @Test func timeLimitBeforeTheFirstChunkIs503AndStopsTheWork() async throws {
        let backend = FakeSpeechBackend(holdAfter: 0)  // never opened: only the time limit can end it
        let configuration = ServerConfiguration(requestTimeLimit: .milliseconds(200))
        try await withServer(backend, configuration: configuration) { client in
            let response = try await client.speech(["model": "tts-1", "input": "Slow.", "response_format": "wav"])
            #expect(response.status == .serviceUnavailable)
            #expect(try ErrorBody(response).error.code == "timeout")
        }
        // The limit ended it: the work was cancelled and never finished.
        await backend.probe.wait { $0.cancelled == 1 }
        #expect(await backend.probe.finished == 0)
    }

    @Test func cancellingTheRequestStopsSynthesisAndFreesTheSlot() async throws {
        let backend = FakeSpeechBackend(holdAfter: 1)
        let server = SpeechServer(backend: backend, configuration: .init(maxConcurrentSyntheses: 1))
        try await Application(router: server.makeRouter()).test { client in
            let request = Task {
                try await client.speech(["model": "tts-1", "input": "A. B. C. D. E. F. G. H.", "response_format": "wav"])
            }
            await backend.probe.wait { $0.produced == 1 }  // the second sentence is held
            request.cancel()
            _ = try? await request.value
            await server.admission.waitUntil(active: 0)
            await backend.probe.wait { $0.cancelled == 1 }  // the held synthesis hears it (else: time limit)
            #expect(await backend.probe.finished == 0)
            #expect(await server.admission.counters.cancelled == 1)
            // The slot is free again.
            let next = try await client.speech(["model": "tts-1", "input": "Again.", "response_format": "wav"])
            #expect(next.status == .ok)
        }
    }
}
