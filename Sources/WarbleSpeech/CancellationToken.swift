import Foundation

/// A flag that stops work under way from another task or thread: set once by `cancel()`, read by the
/// work between steps, and passed on to a backend's own stop switch through `onCancel` (a model family
/// ties it to ONNX Runtime's terminate flag). The vocabulary's own type, so that the contract between
/// the streaming machinery and a model family names no backend.
public final class CancellationToken: @unchecked Sendable {
    // Every field is read and written under `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandler = 0

    public init() {}

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Stops the work: runs every registered handler once, now. Later calls do nothing.
    public func cancel() {
        let toRun: [@Sendable () -> Void] = lock.withLock {
            guard !cancelled else { return [] }
            cancelled = true
            defer { handlers = [:] }
            return handlers.keys.sorted().compactMap { handlers[$0] }
        }
        for handler in toRun { handler() }
    }

    /// Runs `handler` when the token is cancelled (at once, if it already is). The returned
    /// registration removes the handler when the work it guards is over.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Registration {
        let id: Int? = lock.withLock {
            guard !cancelled else { return nil }
            nextHandler += 1
            handlers[nextHandler] = handler
            return nextHandler
        }
        guard let id else {
            handler()
            return Registration(token: nil, id: 0)
        }
        return Registration(token: self, id: id)
    }

    /// Throws `CancellationError` once the token is cancelled.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }

    fileprivate func remove(_ id: Int) {
        lock.withLock { _ = handlers.removeValue(forKey: id) }
    }

    /// A handler's place in its token; `cancel()` it when the guarded work ends.
    public struct Registration: Sendable {
        fileprivate let token: CancellationToken?
        fileprivate let id: Int

        /// Removes the handler (it will not run).
        public func cancel() { token?.remove(id) }
    }
}
