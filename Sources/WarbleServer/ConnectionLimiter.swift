import Foundation

/// The server's open connections against its cap (`ServerConfiguration.maxConnections`), and what was
/// done to connections that broke the rules: refused past the cap, closed for stalling. Shared by every
/// connection's handlers (on any event loop) and `/health`.
final class ConnectionLimiter: @unchecked Sendable {
    /// What `/health` reports under `connections`.
    struct Counts: Sendable, Codable, Equatable {
        /// Connections open now (refused ones not counted).
        var open = 0
        var max: Int
        /// Answered 503 because `max` were open.
        var refused = 0
        /// Closed because the headers, the body or the next request did not come in time.
        var timedOut = 0
    }

    private let lock = NSLock()
    private var counts: Counts
    private var watchers: [(condition: @Sendable (Counts) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(maxConnections: Int) {
        counts = Counts(max: Swift.max(1, maxConnections))
    }

    var current: Counts { lock.withLock { counts } }

    /// Takes a place for a new connection; false (and counted as refused) when all are taken.
    func open() -> Bool {
        change { counts in
            guard counts.open < counts.max else {
                counts.refused += 1
                return false
            }
            counts.open += 1
            return true
        }
    }

    /// Gives back the place of a connection `open()` let in.
    func close() { change { $0.open -= 1 } }

    func timedOut() { change { $0.timedOut += 1 } }

    /// Returns once `condition` holds (at once if it does now); for tests, which wait on this instead of polling.
    func waitUntil(_ condition: @escaping @Sendable (Counts) -> Bool) async {
        await withCheckedContinuation { continuation in
            let met = lock.withLock { () -> Bool in
                if condition(counts) { return true }
                watchers.append((condition, continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }

    private func change<T>(_ body: (inout Counts) -> T) -> T {
        let (result, met) = lock.withLock { () -> (T, [CheckedContinuation<Void, Never>]) in
            let result = body(&counts)
            let now = counts
            let met = watchers.filter { $0.condition(now) }.map(\.continuation)
            watchers.removeAll { $0.condition(now) }
            return (result, met)
        }
        for continuation in met { continuation.resume() }
        return result
    }
}
