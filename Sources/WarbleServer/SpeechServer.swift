import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// The OpenAI-compatible speech server: routes over a `SpeechBackend` (the `Engine`) and a
/// `TranscriptionBackend` (`WhisperBackend`), with the safety settings of `ServerConfiguration`.
public struct SpeechServer<Backend: SpeechBackend>: Sendable {
    public let backend: Backend
    public let transcriber: any TranscriptionBackend
    /// The voice library `POST /v1/audio/voices` and `DELETE /v1/audio/voices/{id}` change (nil: none).
    public let voiceLibrary: (any VoiceLibraryBackend)?
    /// What `POST /v1/text/translations` translates with.
    public let translator: any TranslationBackend
    /// The session history the `/v1/history` routes read and change (nil: the server keeps none).
    public let history: (any HistoryBackend)?
    public let configuration: ServerConfiguration
    /// Slots shared by syntheses and transcriptions (both are CPU-bound on the same cores).
    let admission: AdmissionControl
    /// Open connections against `configuration.maxConnections`, shared by every connection's handlers.
    let connections: ConnectionLimiter
    /// What `/health/ready` answers: starting, ready, failed or draining.
    public let readiness: Readiness
    /// What `/metrics` serves (a registry of this server's own).
    public let metrics: ServerMetrics
    /// The loaded models and their load times, for `/metrics` (nil: none reported).
    public let models: (any ModelStatusBackend)?
    /// What `/v1/models/available`, `POST /v1/models/pull` and `DELETE /v1/models/{id}` list and change (nil: none).
    public let modelLibrary: (any ModelLibraryBackend)?
    /// The folder whose newest `report.json` (of `warble bench report`) `GET /v1/bench/report` serves (nil: none).
    public let benchReports: URL?
    /// What the live caption sessions (`/v1/audio/live`) recognise with.
    public let live: any LiveRecognitionBackend

    public init(backend: Backend, transcriber: any TranscriptionBackend = NoTranscriptionBackend(),
                voiceLibrary: (any VoiceLibraryBackend)? = nil, translator: any TranslationBackend = NoTranslationBackend(),
                history: (any HistoryBackend)? = nil, models: (any ModelStatusBackend)? = nil,
                modelLibrary: (any ModelLibraryBackend)? = nil, benchReports: URL? = nil,
                live: any LiveRecognitionBackend = NoLiveRecognitionBackend(), configuration: ServerConfiguration = .init()) {
        self.models = models
        self.modelLibrary = modelLibrary
        self.benchReports = benchReports
        self.live = live
        self.readiness = Readiness()
        self.metrics = ServerMetrics()
        self.backend = backend
        self.history = history
        self.translator = translator
        self.transcriber = transcriber
        self.voiceLibrary = voiceLibrary
        self.configuration = configuration
        self.admission = AdmissionControl(maxActive: configuration.maxConcurrentSyntheses,
                                          maxQueued: configuration.maxQueuedRequests)
        self.connections = ConnectionLimiter(maxConnections: configuration.maxConnections)
    }

    /// The routes, errors in OpenAI's shape, the API key check when one is set.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: OpenAIErrorMiddleware())
        let table = RouteTable()
        router.add(middleware: MethodNotAllowedMiddleware(table: table))
        if let key = configuration.apiKey, !key.isEmpty { router.add(middleware: APIKeyMiddleware(key: key, metricsPublic: configuration.metricsPublic)) }

        /// A route, also in the table of paths and methods.
        func on(_ method: HTTPRequest.Method, _ path: String,
                use handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> some ResponseGenerator) {
            table.add(path, method)
            router.on(RouterPath(path), method: method, use: handler)
        }

        let catalog = ModelCatalog(backend: backend, aliases: configuration.voiceAliases)
        let recognition = RecognitionCatalog(backend: transcriber, configuration: configuration)
        let info = InfoRoutes(backend: backend, catalog: catalog, recognition: recognition, admission: admission,
                              connections: connections)
        let speech = SpeechRoute(backend: backend, configuration: configuration, admission: admission, catalog: catalog,
                                 metrics: metrics)
        let transcription = TranscriptionRoute(backend: transcriber, configuration: configuration, admission: admission,
                                               catalog: recognition)
        on(.get, "/health") { _, _ in await info.health() }
        let health = HealthRoutes(readiness: readiness, metrics: metrics, admission: admission, connections: connections,
                                  models: models)
        on(.get, "/health/live") { _, _ in health.live() }
        on(.get, "/health/ready") { _, _ in health.ready() }
        on(.get, "/metrics") { _, _ in await health.scrape() }
        on(.get, "/v1/models") { _, _ in await info.models() }
        on(.get, "/v1/models/:id") { _, context in try await info.model(context.parameters.require("id")) }
        let modelRoutes = ModelRoutes(backend: modelLibrary, configuration: configuration)
        on(.get, "/v1/models/available") { _, _ in try await modelRoutes.available() }
        on(.post, "/v1/models/pull") { request, context in try await modelRoutes.pull(request, context: context) }
        on(.delete, "/v1/models/:id") { _, context in try await modelRoutes.remove(context.parameters.require("id")) }
        let benchRoutes = BenchReportRoutes(folder: benchReports)
        on(.get, "/v1/bench/report") { _, _ in try benchRoutes.report() }
        on(.get, "/v1/audio/voices") { _, _ in await info.voices() }
        let voiceRoutes = VoiceRoutes(backend: voiceLibrary, configuration: configuration, admission: admission)
        on(.post, "/v1/audio/voices") { request, context in try await voiceRoutes.add(request, context: context) }
        on(.delete, "/v1/audio/voices/:id") { _, context in try await voiceRoutes.remove(context.parameters.require("id")) }
        on(.post, "/v1/audio/voices/:id/rename") { request, context in
            try await voiceRoutes.rename(context.parameters.require("id"), request)
        }
        on(.get, "/v1/audio/voices/:id/export") { _, context in try await voiceRoutes.export(context.parameters.require("id")) }
        on(.post, "/v1/audio/voices/import") { request, _ in try await voiceRoutes.importVoice(request) }
        on(.post, "/v1/audio/speech") { request, context in try await speech.handle(request, context: context) }
        on(.post, "/v1/audio/transcriptions") { request, context in
            try await transcription.handle(request, context: context, task: .transcribe)
        }
        on(.post, "/v1/audio/translations") { request, context in
            try await transcription.handle(request, context: context, task: .translate)
        }
        let textTranslation = TextTranslationRoute(backend: translator, configuration: configuration, admission: admission)
        on(.post, "/v1/text/translations") { request, context in try await textTranslation.handle(request, context: context) }
        let liveRoutes = LiveRoutes(backend: live, translator: translator, catalog: recognition, configuration: configuration,
                                    sessions: LiveSessions(limit: configuration.maxLiveSessions, idle: configuration.idleTimeout))
        on(.get, "/v1/audio/live") { _, _ in await liveRoutes.offer() }
        on(.post, "/v1/audio/live") { request, _ in try await liveRoutes.open(request) }
        on(.post, "/v1/audio/live/:id/audio") { request, context in try await liveRoutes.audio(request, id: context.parameters.require("id")) }
        on(.get, "/v1/audio/live/:id/events") { request, context in try await liveRoutes.events(request, id: context.parameters.require("id")) }
        on(.delete, "/v1/audio/live/:id") { _, context in try await liveRoutes.end(id: context.parameters.require("id")) }
        let historyRoutes = HistoryRoutes(backend: history, configuration: configuration)
        on(.get, "/v1/history") { request, _ in try await historyRoutes.list(request) }
        on(.get, "/v1/history/:id") { _, context in try await historyRoutes.show(context.parameters.require("id")) }
        on(.get, "/v1/history/:id/export") { _, context in try await historyRoutes.export(context.parameters.require("id")) }
        on(.delete, "/v1/history/:id") { _, context in try await historyRoutes.delete(context.parameters.require("id")) }
        // Warble Studio, the web page (public: it holds no data; its calls use the routes above with the key).
        let studio = StudioRoutes()
        on(.get, "/") { _, _ in try studio.page() }
        on(.get, "/studio/:file") { _, context in try studio.asset(context.parameters.require("file")) }
        return router
    }

    /// The application, bound as configured, with the connection cap and read timeouts of the configuration.
    /// `onRunning` gets the port actually bound (useful with port 0).
    public func makeApplication(logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        Application(
            router: makeRouter(),
            server: .guarded(configuration, limiter: connections),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "warble"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    }

    /// Runs the start-up check (`preload`, then a short synthesis with the default voice) and marks the server
    /// ready, or failed with the reason.
    public func checkReadiness(preload: @Sendable () async throws -> Void = {}) async {
        do {
            try await StartupCheck.run(backend: backend, preload: preload)
            readiness.markReady()
        } catch is CancellationError {
        } catch {
            readiness.markFailed("the start-up check failed: \(error)")
        }
    }

    /// The application and the start-up check in a service group. A graceful shutdown (SIGTERM or SIGINT with
    /// `signals`, or `triggerGracefulShutdown()`) drains: not ready at once, no new connections, requests in
    /// flight finish within `configuration.drainTime`, then they are cut off; a second signal cuts them off at once.
    /// `preload` nil: no start-up check (ready at once).
    public func makeServiceGroup(logger: Logger, signals: Bool = true, preload: (@Sendable () async throws -> Void)? = {},
                                 onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> ServiceGroup {
        let lifecycle = ReadinessService(check: {
            if let preload { await checkReadiness(preload: preload) } else { readiness.markReady() }
        }, readiness: readiness, logger: logger)
        let shutdownSignals: [UnixSignal] = signals ? [.sigterm, .sigint] : []
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: makeApplication(logger: logger, onRunning: onRunning)),
            // Last, so that a graceful shutdown reaches it first: not ready before the listener closes.
            .init(service: lifecycle, successTerminationBehavior: .ignore),
        ]
        if signals { services.insert(.init(service: SecondSignalService(signals: shutdownSignals)), at: 0) }
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: shutdownSignals, logger: logger)
        group.maximumGracefulShutdownDuration = configuration.drainTime
        return ServiceGroup(configuration: group)
    }

    /// Serves until SIGINT or SIGTERM with a logger writing to standard error at `logLevel`
    /// ("trace" … "critical"); `preload` runs before the readiness check's synthesis.
    public func run(logLevel: String, preload: (@Sendable () async throws -> Void)? = {},
                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "warble.serve", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        try await run(logger: logger, preload: preload, onRunning: onRunning)
    }

    /// Serves until SIGINT or SIGTERM, then drains (see `makeServiceGroup`) and returns.
    public func run(logger: Logger, preload: (@Sendable () async throws -> Void)? = {},
                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try configuration.validate()
        do {
            try await makeServiceGroup(logger: logger, preload: preload, onRunning: onRunning).run()
        } catch is CancellationError {
            // Requests still running when the drain time ran out were cut off.
            logger.notice("drain time over: requests still running were cut off")
        } catch let error as SecondSignalService.SecondSignal {
            logger.notice("\(error): requests still running were cut off")
        }
    }
}
