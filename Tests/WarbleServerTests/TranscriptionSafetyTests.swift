import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer

/// Admission control, the time limit and cancellation on the transcription routes (slots are shared
/// with speech).
@Suite(.timeLimit(.minutes(1))) struct TranscriptionSafetyTests {
    @Test func fullQueueIs429AndSlotsAreSharedWithSpeech() async throws {
        let backend = TranscriptionFakeBackend(holdAfter: 0)  // the first request runs until the gate opens
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(maxConcurrentSyntheses: 1, maxQueuedRequests: 1))
        try await Application(router: server.makeRouter()).test { client in
            async let first = client.transcribe(MultipartBody([("model", "whisper-1")]))
            await server.admission.waitUntil(active: 1)
            async let second = client.speech(["model": "tts-1", "input": "Queued.", "response_format": "wav"])
            await server.admission.waitUntil(queued: 1)
            let third = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] == "1")
            #expect(try ErrorBody(third).error.code == "rate_limit_exceeded")
            backend.gate.open()
            #expect(try await first.status == .ok)
            #expect(try await second.status == .ok)
        }
        await server.admission.waitUntil(active: 0)
        #expect(await server.admission.counters == .init(completed: 2, rejected: 1))
    }

    @Test func timeLimitIs503AndStopsTheWork() async throws {
        let backend = TranscriptionFakeBackend(holdAfter: 0)  // never opened: only the time limit can end it
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(requestTimeLimit: .milliseconds(200)))
        try await Application(router: server.makeRouter()).test { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(response.status == .serviceUnavailable)
            let error = try ErrorBody(response).error
            #expect(error.code == "timeout")
            #expect(error.message.contains("transcription did not finish"))
        }
        // The limit ended it: the work was cancelled and never finished.
        await backend.probe.wait { $0.cancelled == 1 }
        #expect(await backend.probe.finished == 0)
        #expect(await server.admission.counters.failed == 1)
        #expect(await server.admission.active == 0)
    }

    @Test func cancellingTheRequestStopsTheTranscriptionAndFreesTheSlot() async throws {
        // Held before its first segment: it cannot finish before the cancellation.
        let backend = TranscriptionFakeBackend(holdAfter: 0)
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(maxConcurrentSyntheses: 1))
        try await Application(router: server.makeRouter()).test { client in
            let request = Task { try await client.transcribe(MultipartBody([("model", "whisper-1")])) }
            await backend.probe.wait { $0.calls == 1 }
            request.cancel()
            _ = try? await request.value
            await server.admission.waitUntil(active: 0)
            await backend.probe.wait { $0.cancelled == 1 }
            #expect(await backend.probe.finished == 0)
            #expect(await server.admission.counters.cancelled == 1)
        }
    }
}
