import Logging
import ServiceLifecycle

/// Runs the start-up check beside the application, then waits; a graceful shutdown marks the server
/// draining at once (and cancels a check still running).
struct ReadinessService: Service {
    let check: @Sendable () async -> Void
    let readiness: Readiness
    let logger: Logger

    func run() async throws {
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown { await check() }
            switch readiness.current {
            case .ready: logger.notice("ready: the start-up check passed")
            case .failed(let reason): logger.error("not ready: \(reason)")
            case .starting, .draining: break
            }
            try? await gracefulShutdown()
        } onGracefulShutdown: {
            readiness.markDraining()
            logger.notice("draining: no longer ready, no new connections; requests in flight may finish")
        }
    }
}
