import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs the application on a free loopback port for the length of `body`, which sends it requests over
    /// real sockets (`TestClientProtocol`); then shuts it down gracefully and waits for it.
    public func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = LoopbackApplication(base: self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
            group.addTask {
                do {
                    try await services.run()
                    app.port.fail(TestServerError.stoppedBeforeListening)
                } catch {
                    app.port.fail(error)
                    throw error
                }
            }
            let port = try await app.port.value()
            do {
                let value = try await body(LoopbackClient(port: port))
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

public enum TestServerError: Error, CustomStringConvertible {
    case stoppedBeforeListening

    public var description: String { "the application under test stopped before it listened" }
}

/// The application under test, bound to 127.0.0.1 on a port the system picks; `port` has it once it listens.
struct LoopbackApplication<Base: ApplicationProtocol>: ApplicationProtocol, Service {
    typealias Responder = Base.Responder

    let base: Base
    let port = PortPromise()

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("127.0.0.1", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let bound = channel.localAddress?.port {
            port.succeed(bound)
        } else {
            port.fail(TestServerError.stoppedBeforeListening)
        }
    }
}

/// The listening port, awaited by the test and set once by the server (or failed when it cannot listen).
final class PortPromise: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, any Error>?
    private var waiters: [CheckedContinuation<Int, any Error>] = []

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(with: result)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func succeed(_ port: Int) { complete(.success(port)) }
    func fail(_ error: any Error) { complete(.failure(error)) }

    private func complete(_ outcome: Result<Int, any Error>) {
        lock.lock()
        guard result == nil else {
            lock.unlock()
            return
        }
        result = outcome
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.resume(with: outcome) }
    }
}
