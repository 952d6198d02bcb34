import Foundation
import Hummingbird

/// Watches a request's connection for the client's hanging up, from when its body has been read until
/// its answer ends, so that every stage runs under one watch: the wait for a slot, the first chunk,
/// the streamed answer. `run` cancels its operation when the client goes.
///
/// Hummingbird's inbound-close watch reads the connection's request stream, so it can run once per
/// request and ends that stream when it stops: answers given under a watch carry `Connection: close`
/// (`APIError.closingConnection`). `stop()` must be awaited before the answer ends, so that the watch
/// is done reading before Hummingbird reads the connection again.
final class HangUpWatch: Sendable {
    private let signal = HangUpSignal()
    private let stopper: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    /// Starts watching; `request`'s body must have been collected (`collectBody`).
    init(_ request: Request) {
        let (stopped, stopper) = AsyncStream<Void>.makeStream()
        let signal = self.signal
        let body = request.body
        self.stopper = stopper
        task = Task {
            _ = try? await body.consumeWithInboundCloseHandler({ _ in
                for await _ in stopped {}  // until `stop()`, or the hang-up
            }, onInboundClosed: {
                signal.fire()
                stopper.finish()
            })
        }
    }

    /// Whether the client has hung up.
    var hungUp: Bool { signal.fired }

    /// `operation`'s result; cancelled, and a `CancellationError`, when the client hangs up (at once if it has).
    func run<Value: Sendable>(_ operation: () async throws -> Value) async throws -> Value {
        try await withoutActuallyEscaping(operation) { operation in
            // The operation runs in a child task while this one waits for it: never used concurrently.
            let unchecked = UncheckedSendable(operation)
            let signal = self.signal
            return try await withThrowingTaskGroup(of: Value.self) { group in
                group.addTask {
                    await signal.wait()
                    throw CancellationError()
                }
                group.addTask { try await unchecked.value() }
                defer { group.cancelAll() }
                guard let value = try await group.next() else { throw CancellationError() }
                return value
            }
        }
    }

    /// Stops watching, once the watch has let go of the connection's request stream.
    func stop() async {
        stopper.finish()
        await task.value
    }
}

/// Whether a hang-up was seen, and who waits for one.
private final class HangUpSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var isFired = false
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextID: UInt64 = 0

    var fired: Bool { lock.withLock { isFired } }

    func fire() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isFired = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the hang-up is seen, or the waiting task is cancelled.
    func wait() async {
        let id = lock.withLock { () -> UInt64 in
            nextID += 1
            return nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = lock.withLock { () -> Bool in
                    if isFired || Task.isCancelled { return true }
                    waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let continuation = lock.withLock { waiters.removeValue(forKey: id) }
            continuation?.resume()
        }
    }
}

/// A value handed to a child task that the parent waits for, so it is never used from two tasks at once.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
