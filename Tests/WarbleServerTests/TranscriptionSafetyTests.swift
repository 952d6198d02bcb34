import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WarbleServer

/// Admission control, the time limit and cancellation on the transcription routes (slots are shared
/// with speech).
@Suite struct TranscriptionSafetyTests {
    @Test func fullQueueIs429AndSlotsAreSharedWithSpeech() async throws {
        let backend = TranscriptionFakeBackend(delay: .milliseconds(300))
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(maxConcurrentSyntheses: 1, maxQueuedRequests: 1))
        try await Application(router: server.makeRouter()).test(.router) { client in
            async let first = client.transcribe(MultipartBody([("model", "whisper-1")]))
            try await waitUntil { await server.admission.active == 1 }
            async let second = client.speech(["model": "tts-1", "input": "Queued.", "response_format": "wav"])
            try await waitUntil { await server.admission.queued == 1 }
            let third = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] == "1")
            #expect(try ErrorBody(third).error.code == "rate_limit_exceeded")
            #expect(try await first.status == .ok)
            #expect(try await second.status == .ok)
        }
        try await waitUntil { await server.admission.active == 0 }
        #expect(await server.admission.counters == .init(completed: 2, rejected: 1))
    }

    @Test func timeLimitIs503AndStopsTheWork() async throws {
        let backend = TranscriptionFakeBackend(delay: .seconds(5))
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(requestTimeLimit: .milliseconds(200)))
        let started = ContinuousClock.now
        try await Application(router: server.makeRouter()).test(.router) { client in
            let response = try await client.transcribe(MultipartBody([("model", "whisper-1")]))
            #expect(response.status == .serviceUnavailable)
            let error = try ErrorBody(response).error
            #expect(error.code == "timeout")
            #expect(error.message.contains("transcription did not finish"))
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        try await waitUntil { await backend.probe.cancelled == 1 }
        #expect(await server.admission.counters.failed == 1)
        #expect(await server.admission.active == 0)
    }

    @Test func cancellingTheRequestStopsTheTranscriptionAndFreesTheSlot() async throws {
        // 2 s per segment: it cannot finish before the cancellation, even on a loaded machine.
        let backend = TranscriptionFakeBackend(delay: .seconds(2))
        let server = SpeechServer(backend: FakeSpeechBackend(), transcriber: backend,
                                  configuration: .init(maxConcurrentSyntheses: 1))
        try await Application(router: server.makeRouter()).test(.router) { client in
            let request = Task { try await client.transcribe(MultipartBody([("model", "whisper-1")])) }
            try await waitUntil { await backend.probe.calls.count == 1 }
            try await Task.sleep(for: .milliseconds(100))
            request.cancel()
            _ = try? await request.value
            try await waitUntil { await server.admission.active == 0 }
            try await waitUntil { await backend.probe.cancelled == 1 }
            #expect(await backend.probe.finished == 0)
            #expect(await server.admission.counters.cancelled == 1)
        }
    }
}
