import Foundation
import NIOCore

/// First in every connection's pipeline, before the HTTP decoder. It takes the connection's place under
/// the cap (`ConnectionLimiter`) or refuses it: 503 in the API's error shape with `Connection: close`,
/// written before any of the request is read (its bytes are never parsed), then a lingering close. For
/// the request timer behind the decoder it marks every read with `BytesArrived` (the decoder says
/// nothing until a request's headers are complete, so it cannot tell an idle connection from one
/// whose client is dribbling its headers).
final class ConnectionGuardHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent down the pipeline before each read's bytes: the client is sending.
    struct BytesArrived {}

    private enum State { case new, admitted, refused }

    private let limiter: ConnectionLimiter
    private var state = State.new

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard state == .new else { return }
        if limiter.open() {
            state = .admitted
            let limiter = self.limiter
            context.channel.closeFuture.whenComplete { _ in limiter.close() }
        } else {
            state = .refused
            let written = context.writeAndFlush(wrapOutboundOut(Self.refusal(limit: limiter.current.max)))
            context.closeLingering(after: written)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state == .admitted else { return }  // a refused connection's bytes are dropped unread
        context.fireUserInboundEventTriggered(BytesArrived())
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if state == .refused, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)  // the client read the refusal and closed its side
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The whole 503 response, as bytes (nothing behind this handler has been asked to answer).
    static func refusal(limit: Int) -> ByteBuffer {
        let error = APIError(.serviceUnavailable, "server busy: \(limit) connections are open, the most it keeps; retry shortly",
                             type: "server_busy", code: "too_many_connections")
        let body = error.body
        var buffer = ByteBuffer()
        buffer.writeString("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nRetry-After: 1\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n")
        buffer.writeBytes(body)
        return buffer
    }
}

@available(*, unavailable)
extension ConnectionGuardHandler: Sendable {}

extension ChannelHandlerContext {
    /// Closes the connection once `written` has gone out: our side first (the client reads the answer, then
    /// the end of the stream), the rest when the client closes its side or after `linger`. Closing both at
    /// once while request bytes wait unread makes the kernel send a reset, and a reset can make the client
    /// drop the answer before reading it.
    func closeLingering(after written: EventLoopFuture<Void>, linger: TimeAmount = .seconds(2)) {
        let channel = self.channel
        written.whenComplete { _ in
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
            channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        }
    }
}
