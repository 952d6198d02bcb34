import NIOCore
import NIOPosix

/// A bare TCP connection to a live test server, for what an HTTP client will not do: send half a
/// request, stall, hang up. It keeps everything the server sends; `readToEnd()` returns it once the
/// server has closed its side (the event the timeout tests wait for).
struct RawConnection: Sendable {
    private let channel: any Channel
    private let ended: EventLoopFuture<ByteBuffer>

    static func open(port: Int) async throws -> RawConnection {
        let group = MultiThreadedEventLoopGroup.singleton
        let ended = group.next().makePromise(of: ByteBuffer.self)
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(ended: ended))
                }
            }
            .connect(host: "localhost", port: port).get()
        return RawConnection(channel: channel, ended: ended.futureResult)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Everything the server sent, once it has closed the connection (or reset it).
    func readToEnd() async throws -> String {
        String(buffer: try await ended.get())
    }

    /// The same as bytes (an audio body is not text).
    func readBytesToEnd() async throws -> [UInt8] {
        Array(try await ended.get().readableBytesView)
    }

    /// Hangs up: closes both directions at once, as a client that gives up does.
    func hangUp() async {
        try? await channel.close().get()
    }

    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private var received = ByteBuffer()
        private let ended: EventLoopPromise<ByteBuffer>
        private var done = false

        init(ended: EventLoopPromise<ByteBuffer>) {
            self.ended = ended
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received.writeBuffer(&buffer)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, event == .inputClosed {
                end()
                context.close(promise: nil)
            }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            end()
            context.fireChannelInactive()
        }

        private func end() {
            guard !done else { return }
            done = true
            ended.succeed(received)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)  // a reset: what arrived before it is the answer
        }
    }
}

/// A request written out by hand: `POST path` with a JSON body (Content-Length set).
func rawPost(_ path: String, json body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
}
