import Hummingbird

/// `GET /health/live`, `/health/ready` and `/metrics` (`/health` stays with `InfoRoutes`).
struct HealthRoutes: Sendable {
    let readiness: Readiness
    let metrics: ServerMetrics
    let admission: AdmissionControl
    let connections: ConnectionLimiter
    let models: (any ModelStatusBackend)?

    struct Live: Codable, Equatable {
        var status = "alive"
    }

    struct Ready: Codable, Equatable {
        var status: String
        var reason: String?
    }

    /// 200 whenever the process answers.
    func live() -> Response { Self.json(Live()) }

    /// 200 when ready; 503 while starting, after a failed start-up check, or while draining, saying why.
    func ready() -> Response {
        let answer = readiness.answer
        var response = Self.json(Ready(status: answer.status, reason: answer.reason))
        if !answer.ready {
            response.status = .serviceUnavailable
            response.headers[.retryAfter] = "1"
        }
        return response
    }

    private static func json(_ value: some Encodable) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: APIJSON.encode(value))))
    }

    /// Prometheus' text format.
    func scrape() async -> Response {
        let snapshot = ServerMetrics.Snapshot(
            ready: readiness.current == .ready, active: await admission.active, maxActive: admission.maxActive,
            queued: await admission.queued, maxQueued: admission.maxQueued, requests: await admission.counters,
            connections: connections.current, models: await models?.loadedModels() ?? [])
        let text = metrics.render(snapshot)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
