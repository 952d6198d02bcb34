import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer

/// `GET /health/live` and `/health/ready` through the start-up check's states; `/health` keeps its shape.
@Suite struct HealthRouteTests {
    @Test func readyFollowsTheStartupCheckAndTheDrain() async throws {
        let backend = FakeSpeechBackend()
        let server = SpeechServer(backend: backend)
        try await Application(router: server.makeRouter()).test { client async throws in
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
            #expect(try await ready(client) == (503, "starting"))

            await server.checkReadiness()
            #expect(await backend.probe.finished == 1)  // the check's short synthesis
            #expect(await backend.probe.requests.first?.text == StartupCheck.text)
            #expect(try await ready(client) == (200, "ready"))

            server.readiness.markDraining()
            let draining = try await client.execute(uri: "/health/ready", method: .get)
            #expect(draining.status == .serviceUnavailable)
            #expect(draining.headers[.retryAfter] == "1")
            #expect(try object(draining)["reason"] as? String != nil)
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
            #expect(try object(try await client.execute(uri: "/health", method: .get))["status"] as? String == "ok")
        }
    }

    @Test func aFailedStartupCheckSaysWhy() async throws {
        struct LoadFailure: Error, CustomStringConvertible { var description: String { "model file missing" } }
        let server = SpeechServer(backend: FakeSpeechBackend())
        try await Application(router: server.makeRouter()).test { client async throws in
            await server.checkReadiness(preload: { throw LoadFailure() })
            let response = try await client.execute(uri: "/health/ready", method: .get)
            #expect(response.status == .serviceUnavailable)
            let body = try object(response)
            #expect(body["status"] as? String == "failed")
            #expect((body["reason"] as? String)?.contains("model file missing") == true)
        }
    }

    private func ready(_ client: some TestClientProtocol) async throws -> (Int, String) {
        let response = try await client.execute(uri: "/health/ready", method: .get)
        return (Int(response.status.code), try object(response)["status"] as? String ?? "")
    }
}
