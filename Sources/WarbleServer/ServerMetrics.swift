import CoreMetrics
import Foundation
import Prometheus

/// The server's Prometheus metrics (`GET /metrics`): events recorded through swift-metrics into a registry of
/// this server's own (no process-wide bootstrap, so servers started side by side, as the tests do, keep
/// apart), and the gauges read when scraped (slots, queue, connections, models, resident memory).
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let exported = ExportedTotals()

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            Name.requestDuration: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60].map { .milliseconds(Int($0 * 1000)) },
            Name.firstAudio: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10].map { .milliseconds(Int($0 * 1000)) },
        ]
        factory.valueHistogramBuckets = [Name.realTimeFactor: [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5]]
        self.factory = factory
    }

    /// The metrics' names (one place: the docs and the tests use the same).
    public enum Name {
        public static let requests = "warble_http_requests_total"
        public static let requestDuration = "warble_http_request_duration_seconds"
        public static let firstAudio = "warble_speech_first_audio_seconds"
        public static let audioSeconds = "warble_speech_audio_seconds_total"
        public static let realTimeFactor = "warble_speech_real_time_factor"
    }

    /// One answered request: its route (the router's pattern, "unmatched" for none), method and status.
    func request(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        CoreMetrics.Counter(label: Name.requests, dimensions: dimensions, factory: factory).increment()
        CoreMetrics.Timer(label: Name.requestDuration, dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// A speech request's first audio, `elapsed` after the request came in.
    func firstAudio(after elapsed: Duration) {
        CoreMetrics.Timer(label: Name.firstAudio, factory: factory).recordNanoseconds(elapsed.nanoseconds)
    }

    /// A finished synthesis: `audioSeconds` of speech produced in `elapsed` (its real-time factor: elapsed / audio).
    func synthesized(audioSeconds: Double, in elapsed: Duration) {
        guard audioSeconds > 0 else { return }
        CoreMetrics.FloatingPointCounter(label: Name.audioSeconds, factory: factory).increment(by: audioSeconds)
        CoreMetrics.Recorder(label: Name.realTimeFactor, aggregate: true, factory: factory).record(elapsed.seconds / audioSeconds)
    }

    /// The text format, after the gauges are read.
    func render(_ snapshot: Snapshot) -> String {
        set("warble_ready", snapshot.ready ? 1 : 0, help: "1 when /health/ready answers 200")
        set("warble_slots_active", snapshot.active, help: "Syntheses and transcriptions running")
        set("warble_slots_max", snapshot.maxActive, help: "Syntheses and transcriptions that may run at once")
        set("warble_queue_depth", snapshot.queued, help: "Requests waiting for a slot")
        set("warble_queue_max", snapshot.maxQueued, help: "Requests that may wait for a slot")
        set("warble_connections_open", snapshot.connections.open, help: "Open connections")
        set("warble_connections_max", snapshot.connections.max, help: "Connections allowed at once")
        exported.raise(registry, "warble_admission_rejected_total", to: snapshot.requests.rejected,
                       help: "Requests answered 429: queue full or no slot in time")
        exported.raise(registry, "warble_connections_refused_total", to: snapshot.connections.refused,
                       help: "Connections answered 503 past the connection cap")
        exported.raise(registry, "warble_connections_timed_out_total", to: snapshot.connections.timedOut,
                       help: "Connections closed for stalling (header, body or idle timeout)")
        set("warble_models_loaded", snapshot.models.count, help: "Models loaded now")
        for model in snapshot.models {
            registry.makeGauge(descriptor: Self.descriptor("warble_model_loaded", "1 for each model loaded now"), labels: [("model", model.id)])
                .set(to: 1)
            if let seconds = model.loadSeconds {
                registry.makeGauge(descriptor: Self.descriptor("warble_model_load_seconds", "Time the model took to load"), labels: [("model", model.id)]).set(to: seconds)
            }
        }
        for id in exported.dropModels(keeping: Set(snapshot.models.map(\.id))) {
            registry.unregisterGauge(registry.makeGauge(descriptor: Self.descriptor("warble_model_loaded", "1 for each model loaded now"), labels: [("model", id)]))
        }
        if let rss = ResidentMemory.bytes() {
            set("process_resident_memory_bytes", rss, help: "Resident memory (VmRSS) in bytes")
        }
        return registry.emitToString()
    }

    private func set(_ name: String, _ value: some BinaryInteger, help: String) {
        registry.makeGauge(descriptor: Self.descriptor(name, help)).set(to: Double(value))
    }

    static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// What the scrape reads: the server's counters and the backend's models.
    struct Snapshot: Sendable {
        var ready: Bool
        var active: Int, maxActive: Int, queued: Int, maxQueued: Int
        var requests: AdmissionControl.Counters
        var connections: ConnectionLimiter.Counts
        var models: [LoadedModel]
    }
}

/// Counters kept elsewhere (the admission's and the connection limiter's), raised to their value when scraped,
/// and the models last exported (a model unloaded since is dropped).
private final class ExportedTotals: @unchecked Sendable {
    private let lock = NSLock()
    private var totals: [String: Int] = [:]
    private var models: Set<String> = []

    func raise(_ registry: PrometheusCollectorRegistry, _ name: String, to value: Int, help: String) {
        let counter = registry.makeCounter(descriptor: ServerMetrics.descriptor(name, help))
        let step = lock.withLock { () -> Int in
            let step = max(0, value - totals[name, default: 0])
            totals[name] = max(value, totals[name, default: 0])
            return step
        }
        counter.increment(by: Int64(step))
    }

    /// The models exported before and not in `keeping`; remembers `keeping` for next time.
    func dropModels(keeping: Set<String>) -> Set<String> {
        lock.withLock {
            let gone = models.subtracting(keeping)
            models = keeping
            return gone
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
