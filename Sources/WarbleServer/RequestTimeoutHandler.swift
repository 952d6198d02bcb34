import NIOCore
import NIOHTTP1

/// Closes connections whose client stalls; it sits right behind the HTTP decoder. A request's headers
/// must be complete within `header` (from the connection's opening for its first request, from the
/// first byte for later ones), its body must never pause longer than `body`, and a kept-alive
/// connection must send its next request within `idle`. A stalled request gets 408 in the API's error
/// shape with `Connection: close`, then a lingering close; a connection that sent nothing, or whose
/// answer has already begun, is closed without a word. No clock runs while the server is the one
/// behind: while it answers (the request time limit covers that), or while it does not read because
/// the route has not taken what was read (back-pressure is not the client's stall).
final class RequestTimeoutHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    struct Limits: Sendable {
        var header: Duration
        var body: Duration
        var idle: Duration
    }

    private enum Reading { case awaitingRequest, head, body }
    private enum Wait { case header, body, idle }

    private let limits: Limits
    private let limiter: ConnectionLimiter
    private var reading = Reading.awaitingRequest
    private var firstRequest = true
    /// Requests whose head was read and whose response has not ended.
    private var unanswered = 0
    /// A response head was written and its end was not.
    private var responding = false
    /// The pipeline asked for bytes and none have come since (false: the server holds reading back).
    private var readPending = false
    private var armed: Wait?
    private var timer: Scheduled<Void>?
    /// Timed out: the connection is being closed and nothing more goes in or out.
    private var closing = false

    init(limits: Limits, limiter: ConnectionLimiter) {
        self.limits = limits
        self.limiter = limiter
    }

    // MARK: Events

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { update(context, restart: true) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        update(context, restart: true)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ConnectionGuardHandler.BytesArrived {
            guard !closing else { return }
            switch reading {
            case .awaitingRequest:
                reading = .head
                update(context, restart: false)  // a first request's clock started with the connection
            case .body: update(context, restart: true)
            case .head: break
            }
            return
        }
        if closing, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)  // the client read the 408 and closed its side
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            reading = .body
            unanswered += 1
            firstRequest = false
            update(context, restart: true)
        case .body:
            update(context, restart: true)
        case .end:
            reading = .awaitingRequest
            update(context, restart: false)
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        readPending = false
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        readPending = true
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            promise?.fail(ChannelError.outputClosed)  // the 408 was the answer
            return
        }
        switch unwrapOutboundIn(data) {
        case .head:
            responding = true
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responding = false
            unanswered = max(0, unanswered - 1)
            context.write(data, promise: promise)
            update(context, restart: false)
        }
    }

    // MARK: The clock

    /// What the connection waits for from the client now, if anything.
    private var wait: Wait? {
        switch reading {
        case .body: unanswered <= 1 ? .body : nil  // an earlier request's answer is still being written
        case .head: unanswered == 0 ? .header : nil
        case .awaitingRequest: unanswered == 0 ? (firstRequest ? .header : .idle) : nil
        }
    }

    private func limit(_ wait: Wait) -> Duration {
        switch wait {
        case .header: limits.header
        case .body: limits.body
        case .idle: limits.idle
        }
    }

    /// Sets the clock for what the connection waits for: started again when that changed or `restart`.
    private func update(_ context: ChannelHandlerContext, restart: Bool) {
        let wait = self.wait
        guard restart || wait != armed else { return }
        disarm()
        armed = wait
        if let wait { schedule(context, in: limit(wait)) }
    }

    private func schedule(_ context: ChannelHandlerContext, in duration: Duration) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { [self] in
            timer = nil
            expire(context)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        armed = nil
    }

    private func expire(_ context: ChannelHandlerContext) {
        guard let wait = armed, !closing else { return }
        guard readPending else {
            schedule(context, in: limit(wait))  // the server is not reading: not the client's stall
            return
        }
        closing = true
        armed = nil
        limiter.timedOut()
        let answerable = !responding && (reading == .head ? unanswered == 0 : reading == .body && unanswered == 1)
        guard answerable else {
            context.close(promise: nil)
            return
        }
        let error = wait == .body
            ? APIError(.requestTimeout, "the request body paused for more than \(Self.seconds(limits.body)); closing the connection",
                       code: "request_timeout")
            : APIError(.requestTimeout, "the request's headers did not arrive within \(Self.seconds(limits.header)); closing the connection",
                       code: "request_timeout")
        let body = error.body
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .requestTimeout, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        context.closeLingering(after: written)
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

@available(*, unavailable)
extension RequestTimeoutHandler: Sendable {}
