import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
@testable import WarbleServer

/// `GET /metrics`: Prometheus' text format that moves with the requests served, behind the API key unless public.
@Suite struct MetricsRouteTests {
    static let key = "metrics-key"
    static let bearer: HTTPFields = [.authorization: "Bearer \(key)"]

    @Test func countersMoveAndHistogramsHaveBuckets() async throws {
        let server = SpeechServer(backend: FakeSpeechBackend(), models: FixedModels())
        try await Application(router: server.makeRouter()).test { client async throws in
            let before = try PrometheusText(try await scrape(client))
            #expect(before.series(ServerMetrics.Name.requests).isEmpty)

            #expect(try await client.speech(["model": "tts-1", "input": "One. Two.", "response_format": "wav"]).status == .ok)
            #expect(try await client.speech(["model": "tts-1", "input": "One.", "response_format": "wav"]).status == .ok)
            #expect(try await client.execute(uri: "/v1/models/nope", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)

            let text = try await scrape(client)
            let after = try PrometheusText(text)
            let speech = #"warble_http_requests_total{route="/v1/audio/speech",method="POST",status="200"}"#
            #expect(after.samples[speech] == 2)
            #expect(after.samples[#"warble_http_requests_total{route="/health",method="GET",status="200"}"#] == 1)
            #expect(after.series(ServerMetrics.Name.requests).contains { $0.key.contains(#"status="404""#) && $0.value == 1 })
            #expect(after.types[ServerMetrics.Name.requests] == "counter")
            for histogram in [ServerMetrics.Name.requestDuration, ServerMetrics.Name.firstAudio, ServerMetrics.Name.realTimeFactor] {
                #expect(after.types[histogram] == "histogram", "\(histogram)")
                let buckets = after.series(histogram + "_bucket")
                #expect(buckets.count > 3, "\(histogram) has buckets")
                #expect(buckets.contains { $0.key.contains(#"le="+Inf""#) && $0.value >= 1 }, "\(histogram)")
            }
            #expect(after.samples[#"warble_speech_first_audio_seconds_count"#] == 2)
            // Three sentences of 0.2 s from the fake backend.
            let audio = try #require(after.samples[ServerMetrics.Name.audioSeconds])
            #expect(abs(audio - 0.6) < 0.01)
            #expect(after.samples["warble_slots_max"] == 2)
            #expect(after.samples["warble_queue_depth"] == 0)
            #expect(after.samples["warble_connections_max"] == 512)
            #expect(after.samples["warble_admission_rejected_total"] == 0)
            #expect(after.samples["warble_models_loaded"] == 1)
            #expect(after.samples[#"warble_model_load_seconds{model="test-model"}"#] == 1.5)
            #expect(after.samples["warble_ready"] == 0)  // the start-up check never ran here
            if FileManager.default.fileExists(atPath: "/proc/self/status") {
                #expect((after.samples["process_resident_memory_bytes"] ?? 0) > 1_000_000)
            }
        }
    }

    @Test func metricsNeedTheKeyUnlessPublic() async throws {
        var configuration = ServerConfiguration(apiKey: Self.key)
        let server = SpeechServer(backend: FakeSpeechBackend(), configuration: configuration)
        try await Application(router: server.makeRouter()).test { client async throws in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: Self.bearer).status == .ok)
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/health/ready", method: .get).status == .serviceUnavailable)
        }
        configuration.metricsPublic = true
        let open = SpeechServer(backend: FakeSpeechBackend(), configuration: configuration)
        try await Application(router: open.makeRouter()).test { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(try await client.execute(uri: "/v1/models", method: .get).status == .unauthorized)
        }
    }

    private func scrape(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/metrics", method: .get)
        #expect(response.status == .ok)
        return String(buffer: response.body)
    }
}

/// One loaded model, timed.
struct FixedModels: ModelStatusBackend {
    func loadedModels() async -> [LoadedModel] { [LoadedModel(id: "test-model", loadSeconds: 1.5)] }
}
