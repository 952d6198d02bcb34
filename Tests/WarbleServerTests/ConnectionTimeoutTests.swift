import Foundation
import Hummingbird
import WarbleHTTPTesting
import Logging
import Testing
@testable import WarbleServer

/// The read timeouts over real sockets: a client that stalls is closed by the server (the event each
/// test waits for is the server's closing the connection), with 408 when it was part-way through a request.
@Suite(.timeLimit(.minutes(1))) struct ConnectionTimeoutTests {
    static let quick = ServerConfiguration(headerTimeout: .milliseconds(300), bodyTimeout: .milliseconds(300),
                                           idleTimeout: .milliseconds(300))

    /// `body` against a live server with short timeouts; the tests speak through `RawConnection` (the test
    /// client opens no connection of its own until it sends a request).
    func withLiveServer(_ configuration: ServerConfiguration = quick,
                        _ body: @Sendable (SpeechServer<FakeSpeechBackend>, Int) async throws -> Void) async throws {
        let server = SpeechServer(backend: FakeSpeechBackend(), configuration: configuration)
        try await server.makeApplication(logger: Logger(label: "test")).test { client in
            try await body(server, try #require(client.port))
        }
    }

    @Test func halfTheHeadersThenAStallIs408AndClosed() async throws {
        try await withLiveServer { server, port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n")
            let answer = try await connection.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"))
            #expect(answer.contains(#""code":"request_timeout""#))
            #expect(answer.contains("headers did not arrive within 0.3 s"))
            await server.connections.waitUntil { $0.timedOut >= 1 }
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedWithoutAWord() async throws {
        try await withLiveServer { _, port in
            let connection = try await RawConnection.open(port: port)
            #expect(try await connection.readToEnd() == "")
        }
    }

    @Test func aBodyShortOfItsLengthIs408AndClosed() async throws {
        try await withLiveServer { _, port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n{\"input\":")
            let answer = try await connection.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(answer.contains("the request body paused for more than 0.3 s"))
        }
    }

    @Test func aKeptAliveConnectionIsClosedWhenIdle() async throws {
        try await withLiveServer { _, port in
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let answer = try await connection.readToEnd()  // answered, kept alive, then closed as idle
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2)  // one answer, no 408 after it
        }
    }

    @Test func aBodyThatKeepsComingIsNotCutOff() async throws {
        // Five pieces 0.15 s apart: longer in all than the 0.3 s body timeout, never pausing as long.
        try await withLiveServer { _, port in
            let connection = try await RawConnection.open(port: port)
            let body = #"{"model": "tts-1", "input": "One.", "response_format": "wav"}"#
            let request = rawPost("/v1/audio/speech", json: body)
            try await connection.send(String(request.dropLast(body.count)))  // the head alone
            var rest = Substring(body)
            while !rest.isEmpty {
                try await Task.sleep(for: .milliseconds(150))
                try await connection.send(String(rest.prefix(12)))
                rest = rest.dropFirst(12)
            }
            let answer = try await connection.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        }
    }

    @Test func pastTheCapANewConnectionIs503AndClosedUnread() async throws {
        // One place, taken by `first`.
        let configuration = ServerConfiguration(maxConnections: 1)
        try await withLiveServer(configuration) { server, port in
            let first = try await RawConnection.open(port: port)
            await server.connections.waitUntil { $0.open == 1 }
            let refused = try await RawConnection.open(port: port)
            // The answer comes unread: the server may have closed before the request is written, so the
            // write may fail (I/O on a closed channel); what was answered is what counts.
            try? await refused.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let answer = try await refused.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
            #expect(answer.contains("Connection: close\r\n"))
            #expect(answer.contains("Retry-After: 1\r\n"))
            let json = try #require(answer.components(separatedBy: "\r\n\r\n").last)
            let error = try JSONDecoder().decode([String: [String: String?]].self, from: Data(json.utf8))
            #expect(error["error"]?["code"] == "too_many_connections")
            #expect(server.connections.current.refused == 1)
            // A place freed is a place taken again.
            await first.hangUp()
            await server.connections.waitUntil { $0.open == 0 }
            let next = try await RawConnection.open(port: port)
            try await next.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try await next.readToEnd().hasPrefix("HTTP/1.1 200"))
        }
    }
}
