import Foundation
import Hummingbird
import WarbleHTTPTesting
import Logging
import Testing
@testable import WarbleServer

/// A client that hangs up before its first audio, over real sockets: the server notices while the
/// request waits for a slot and while its first chunk renders, stops the run and frees the place at
/// once. Each step waits on the server's own events (admission counts, the backend's probe).
@Suite(.timeLimit(.minutes(1))) struct HangUpTests {
    static let slow = rawPost("/v1/audio/speech", json: #"{"model": "tts-1", "input": "One. Two. Three.", "response_format": "wav"}"#)

    @Test func hangingUpWhileTheFirstChunkRendersStopsTheRunAndFreesTheSlot() async throws {
        let backend = FakeSpeechBackend(holdAfter: 0)  // the first chunk is held until cancelled
        let server = SpeechServer(backend: backend, configuration: .init(maxConcurrentSyntheses: 1, maxQueuedRequests: 0))
        try await server.makeApplication(logger: Logger(label: "test")).test { client in
            let port = try #require(client.port)
            let leaving = try await RawConnection.open(port: port)
            try await leaving.send(Self.slow)
            await backend.probe.wait { $0.started == 1 }  // rendering its first chunk
            await leaving.hangUp()
            await backend.probe.wait { $0.cancelled == 1 }  // the run heard it (else: the 120 s time limit)
            await server.admission.waitUntil(active: 0)
            #expect(await backend.probe.produced == 0)
            #expect(await backend.probe.finished == 0)
            #expect(await server.admission.counters.cancelled == 1)
            // With one slot and no queue, a new request is admitted (not 429) only if the slot was freed.
            backend.gate.open()
            let next = try await RawConnection.open(port: port)
            try await next.send(Self.slow)
            #expect(try await next.readToEnd().hasPrefix("HTTP/1.1 200"))
        }
        #expect(await server.admission.counters == .init(completed: 1, cancelled: 1))
    }

    @Test func hangingUpWhileQueuedGivesUpThePlaceInTheQueue() async throws {
        let backend = FakeSpeechBackend(holdAfter: 0)
        let server = SpeechServer(backend: backend, configuration: .init(maxConcurrentSyntheses: 1, maxQueuedRequests: 1))
        try await server.makeApplication(logger: Logger(label: "test")).test { client in
            let port = try #require(client.port)
            let running = try await RawConnection.open(port: port)
            try await running.send(Self.slow)
            await backend.probe.wait { $0.started == 1 }
            let queued = try await RawConnection.open(port: port)
            try await queued.send(Self.slow)
            await server.admission.waitUntil(queued: 1)
            await queued.hangUp()
            await server.admission.waitUntil(queued: 0)
            #expect(await server.admission.counters.cancelled == 1)
            #expect(await backend.probe.started == 1)  // the queued request never ran
            // Its place is free: another request queues instead of getting 429, then both run.
            let next = try await RawConnection.open(port: port)
            try await next.send(Self.slow)
            await server.admission.waitUntil(queued: 1)
            backend.gate.open()
            #expect(try await running.readToEnd().hasPrefix("HTTP/1.1 200"))
            #expect(try await next.readToEnd().hasPrefix("HTTP/1.1 200"))
        }
        #expect(await server.admission.counters == .init(completed: 2, cancelled: 1))
    }
}
