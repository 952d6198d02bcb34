import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 connection with Warble's connection rules: `ConnectionGuardHandler` in front of
/// the HTTP decoder (the cap on open connections, and a sign whenever bytes arrive), and
/// `RequestTimeoutHandler` right behind it (header, body and idle timeouts).
struct GuardedHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel
    let limiter: ConnectionLimiter
    let limits: RequestTimeoutHandler.Limits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuardHandler(limiter: limiter), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let (limiter, limits) = (self.limiter, self.limits)
        // Hummingbird sets the pipeline up at once (the future is complete): the timer goes in behind its decoder.
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestTimeoutHandler(limits: limits, limiter: limiter), position: .after(decoder))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the connection cap and the read timeouts of `configuration`.
    static func guarded(_ configuration: ServerConfiguration, limiter: ConnectionLimiter) -> HTTPServerBuilder {
        let limits = RequestTimeoutHandler.Limits(header: configuration.headerTimeout, body: configuration.bodyTimeout,
                                                  idle: configuration.idleTimeout)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(http1: HTTP1Channel(responder: responder), limiter: limiter, limits: limits)
        }
    }
}
