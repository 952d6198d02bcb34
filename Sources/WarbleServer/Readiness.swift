import Foundation

/// Whether the server takes work (`GET /health/ready`): starting until the start-up check passes (the
/// default voice's model loaded and a short synthesis heard), then ready until a drain begins; failed when
/// the check failed. Shared by the routes and the drain.
public final class Readiness: @unchecked Sendable {
    public enum State: Sendable, Equatable {
        case starting
        case ready
        case failed(String)
        case draining
    }

    private let lock = NSLock()
    private var state = State.starting
    private var watchers: [(condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    public var current: State { lock.withLock { state } }

    /// Ready, unless a drain has begun.
    public func markReady() { change { if $0 != .draining { $0 = .ready } } }

    /// Failed with `reason`, unless a drain has begun.
    public func markFailed(_ reason: String) { change { if $0 != .draining { $0 = .failed(reason) } } }

    /// Draining: never ready again.
    public func markDraining() { change { $0 = .draining } }

    /// Returns once `condition` holds (at once if it does now); for tests, which wait on this instead of polling.
    public func waitUntil(_ condition: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let met = lock.withLock { () -> Bool in
                if condition(state) { return true }
                watchers.append((condition, continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }

    private func change(_ body: (inout State) -> Void) {
        let met = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            body(&state)
            let now = state
            let met = watchers.filter { $0.condition(now) }.map(\.continuation)
            watchers.removeAll { $0.condition(now) }
            return met
        }
        for continuation in met { continuation.resume() }
    }

    /// What `/health/ready` says: its status code and why.
    var answer: (ready: Bool, status: String, reason: String?) {
        switch current {
        case .ready: (true, "ready", nil)
        case .starting: (false, "starting", "the default voice's model is loading and being checked")
        case .failed(let reason): (false, "failed", reason)
        case .draining: (false, "draining", "the server is shutting down: requests in flight finish, new ones go elsewhere")
        }
    }
}
