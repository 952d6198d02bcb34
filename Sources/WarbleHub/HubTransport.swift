import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP for the Hub client over Foundation's `URLSession` (libcurl on Linux, which the Swift runtime
/// already links): no HTTP stack to compile into the `warble` command. Redirects are never followed (the
/// client reads `Location` itself), bodies arrive as a stream of chunks, and cancelling the consuming task
/// cancels the transfer.
final class HubTransport: Sendable {
    /// A response's status and headers, and its body as it arrives.
    struct Response: Sendable {
        var status: Int
        /// Header names lower-cased.
        var headers: [String: String]
        var body: AsyncThrowingStream<Data, any Error>

        func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The whole body, refused past `limit` bytes.
        func collect(upTo limit: Int) async throws -> Data {
            var data = Data()
            for try await chunk in body {
                data.append(chunk)
                if data.count > limit { throw TransferError(description: "the answer is larger than \(limit) bytes") }
            }
            return data
        }
    }

    struct TransferError: Error, CustomStringConvertible {
        var description: String
    }

    private let session: URLSession
    private let delegate: Delegate

    /// `idleTimeout`: the longest wait for the next bytes of an answer (the connection's set-up included).
    init(idleTimeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        delegate = Delegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    func shutdown() {
        session.invalidateAndCancel()
    }

    /// Sends `request` and returns once its status and headers have arrived; the body follows in the stream
    /// (ending a consumer's iteration, or cancelling its task, cancels the transfer).
    func send(_ request: URLRequest) async throws -> Response {
        let task = session.dataTask(with: request)
        let (body, bodyContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        bodyContinuation.onTermination = { _ in task.cancel() }
        let response: HTTPURLResponse = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (answer: CheckedContinuation<HTTPURLResponse, any Error>) in
                delegate.register(task.taskIdentifier, Transfer(answer: answer, body: bodyContinuation))
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return Response(status: response.statusCode, headers: headers, body: body)
    }

    /// One request's two outlets: its answer (once), then its body.
    final class Transfer: @unchecked Sendable {
        private var answer: CheckedContinuation<HTTPURLResponse, any Error>?
        let body: AsyncThrowingStream<Data, any Error>.Continuation

        init(answer: CheckedContinuation<HTTPURLResponse, any Error>, body: AsyncThrowingStream<Data, any Error>.Continuation) {
            self.answer = answer
            self.body = body
        }

        /// Called under the delegate's lock.
        func answered(_ response: HTTPURLResponse) {
            answer?.resume(returning: response)
            answer = nil
        }

        func ended(_ error: (any Error)?) {
            if let answer {
                answer.resume(throwing: error ?? TransferError(description: "the connection closed before an answer arrived"))
                self.answer = nil
            }
            if let error { body.finish(throwing: error) } else { body.finish() }
        }
    }

    /// The session's delegate: hands each task's answer and bytes to the request that made it.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        func register(_ id: Int, _ transfer: Transfer) {
            lock.withLock { transfers[id] = transfer }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)  // the redirect itself is the answer
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            guard let http = response as? HTTPURLResponse else {
                completionHandler(.cancel)
                return
            }
            lock.withLock { transfers[dataTask.taskIdentifier]?.answered(http) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let transfer = lock.withLock { transfers[dataTask.taskIdentifier] }
            transfer?.body.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.withLock {
                transfers.removeValue(forKey: task.taskIdentifier)?
                    .ended(error.map { TransferError(description: $0.localizedDescription) })
            }
        }
    }
}
