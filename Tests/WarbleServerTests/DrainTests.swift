import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Testing
@testable import WarbleServer

/// A graceful shutdown over real sockets (what SIGTERM starts in `warble serve`): the server stops being
/// ready and stops accepting at once, a request in flight finishes with its whole body, and the server
/// stops when it has, or cuts it off when the drain time runs out. Each step waits on an event.
@Suite(.timeLimit(.minutes(1))) struct DrainTests {
    static let held = rawPost("/v1/audio/speech", json: #"{"model": "tts-1", "input": "One. Two. Three.", "response_format": "pcm"}"#)

    @Test func aRequestInFlightFinishesWhileNewConnectionsAreRefused() async throws {
        let backend = FakeSpeechBackend(holdAfter: 1)  // one chunk, then held until the test opens the gate
        var configuration = ServerConfiguration(port: 0)
        configuration.drainTime = .seconds(30)
        let started = try await Started(SpeechServer(backend: backend, configuration: configuration))
        await started.server.readiness.waitUntil { $0 == .ready }  // the start-up check ("Ready.": one chunk)

        let inFlight = try await RawConnection.open(port: started.port)
        try await inFlight.send(Self.held)
        await backend.probe.wait { $0.produced == 2 }  // its first chunk is out; the second is held
        let drainStarted = ContinuousClock.now
        await started.group.triggerGracefulShutdown()
        await started.server.readiness.waitUntil { $0 == .draining }
        try await refusedOnceTheListenerCloses(port: started.port)

        backend.gate.open()
        let answer = try await inFlight.readBytesToEnd()
        #expect(answer.starts(with: Array("HTTP/1.1 200".utf8)))
        // Three sentences of 0.2 s as OpenAI's pcm (24 kHz, 16-bit), chunked: the whole body and its end arrived.
        #expect(abs(try bodyBytes(answer) - 3 * 4800 * 2) < 200)
        try await started.stopped()
        #expect(ContinuousClock.now - drainStarted < .seconds(30))
        #expect(await backend.probe.finished == 2)
        #expect(await started.server.admission.counters.completed == 1)
    }

    @Test func theDrainTimeCutsOffWhatIsLeft() async throws {
        let backend = FakeSpeechBackend(holdAfter: 1)
        var configuration = ServerConfiguration(port: 0)
        configuration.drainTime = .milliseconds(300)
        let started = try await Started(SpeechServer(backend: backend, configuration: configuration))
        await started.server.readiness.waitUntil { $0 == .ready }

        let inFlight = try await RawConnection.open(port: started.port)
        try await inFlight.send(Self.held)
        await backend.probe.wait { $0.produced == 2 }
        let drainStarted = ContinuousClock.now
        await started.group.triggerGracefulShutdown()
        try await started.stopped()  // never opened: only the drain time ends it
        #expect(ContinuousClock.now - drainStarted < .seconds(10))
        await backend.probe.wait { $0.cancelled == 1 }
        #expect(try await inFlight.readToEnd().hasPrefix("HTTP/1.1 200"))  // started, then cut off
    }

    /// Connects until a connection is refused: the listener closes just after the drain begins (connections
    /// that slip in before are quiesced, closed unanswered).
    private func refusedOnceTheListenerCloses(port: Int) async throws {
        while true {
            guard let connection = try? await RawConnection.open(port: port) else { return }
            await connection.hangUp()
            await Task.yield()
        }
    }

    /// The size of a chunked body, checking that it ends with its last chunk.
    private func bodyBytes(_ bytes: [UInt8]) throws -> Int {
        let separator = Array("\r\n\r\n".utf8)
        let head = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == separator })
        #expect(String(decoding: bytes[..<head], as: UTF8.self).lowercased().contains("transfer-encoding: chunked"))
        var index = head + 4, total = 0
        while true {
            let lineEnd = try #require((index..<(bytes.count - 1)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 })
            let size = try #require(Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16))
            if size == 0 { return total }
            total += size
            index = lineEnd + 2 + size + 2
        }
    }
}

/// A server running in its service group (no signals: the test triggers the drain), and the port it bound.
private struct Started: Sendable {
    let server: SpeechServer<FakeSpeechBackend>
    let group: ServiceGroup
    let port: Int
    let run: Task<Void, any Error>

    init(_ server: SpeechServer<FakeSpeechBackend>) async throws {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "drain-test")
        logger.logLevel = .warning
        let group = server.makeServiceGroup(logger: logger, signals: false, onRunning: { port in continuation.yield(port) })
        self.server = server
        self.group = group
        run = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        port = try #require(await iterator.next())
    }

    /// Waits for the group to end; a drain cut short ends it with a cancellation, which is how it stops.
    func stopped() async throws {
        do { try await run.value } catch is CancellationError {}
    }
}
