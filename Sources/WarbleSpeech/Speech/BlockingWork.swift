import Dispatch

/// The one way Warble runs blocking work (ONNX Runtime's runs, a model's loading, hashing a file) off
/// Swift's cooperative thread pool, so that a long synthesis or transcription never starves other tasks
/// (a server's request handling, a status stream). Cancelling the task that waits cancels the work's
/// `CancellationToken`, which a model family ties to ONNX Runtime's terminate flag: a run under way stops.
public enum BlockingWork {
    private static let queue = DispatchQueue(label: "warble.model-work", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` off the cooperative pool and returns its result.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Runs `body` off the cooperative pool with a token that cancelling the waiting task cancels; a
    /// cancelled task gets `CancellationError` (not the error of a run its token stopped), even when the
    /// work finished first.
    public static func run<T: Sendable>(cancel: CancellationToken,
                                        _ body: @escaping @Sendable (CancellationToken) throws -> T) async throws -> T {
        let value: T
        do {
            value = try await withTaskCancellationHandler {
                try await run { try body(cancel) }
            } onCancel: {
                cancel.cancel()
            }
        } catch where cancel.isCancelled {
            throw CancellationError()
        }
        try Task.checkCancellation()
        return value
    }

    /// A stream produced by blocking work: `body` runs off the cooperative pool and hands each element
    /// to `yield`; a consumer that stops early (or whose task is cancelled) cancels the token `body`
    /// gets, so the work stops at its next check or inside ONNX Runtime's run.
    public static func stream<Element: Sendable>(
        _ body: @escaping @Sendable (_ cancel: CancellationToken, _ yield: (Element) -> Void) throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let cancel = CancellationToken()
            continuation.onTermination = { _ in cancel.cancel() }
            queue.async {
                do {
                    try body(cancel) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }
}
