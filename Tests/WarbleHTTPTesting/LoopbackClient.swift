import Hummingbird
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 client of the application under test: a connection a request (`Connection: close`), the
/// response read whole (chunked bodies decoded, trailers kept); cancelling the request closes its connection.
struct LoopbackClient: TestClientProtocol {
    let port: Int?

    init(port: Int) {
        self.port = port
    }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let response = loop.makePromise(of: TestResponse.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(ResponseCollector(response))
                    }
                }
                .connect(host: "127.0.0.1", port: port!).get()
        } catch {
            response.fail(error)
            throw error
        }
        var fields = HTTPHeaders()
        fields.add(name: "Host", value: "localhost")
        for field in headers { fields.add(name: field.name.rawName, value: field.value) }
        if let body, headers[.contentLength] == nil { fields.add(name: "Content-Length", value: String(body.readableBytes)) }
        fields.add(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri, headers: fields)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        defer { channel.close(promise: nil) }
        // A cancelled request hangs up, as a client that gives up does: the server hears the connection close.
        return try await withTaskCancellationHandler {
            try await response.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}

/// Collects one response; fails it when the connection ends or errs before the response's end.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<TestResponse>
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(_ promise: EventLoopPromise<TestResponse>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
        case .body(var part):
            body.writeBuffer(&part)
        case .end(let trailers):
            guard let head, !done else { return }
            done = true
            let response = HTTPResponse(status: .init(code: Int(head.status.code), reasonPhrase: head.status.reasonPhrase),
                                        headerFields: Self.fields(head.headers))
            promise.succeed(TestResponse(head: response, body: body, trailerHeaders: trailers.map(Self.fields)))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(with: error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(with: ChannelError.eof)
        context.fireChannelInactive()
    }

    private func finish(with error: any Error) {
        guard !done else { return }
        done = true
        promise.fail(error)
    }

    private static func fields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPFields.Element.Name(name) { fields.append(HTTPFields.Element(name: name, value: value)) }
        }
        return fields
    }
}
