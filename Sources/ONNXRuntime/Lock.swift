import Foundation

/// A small mutual-exclusion lock for state shared across tasks and threads (also used by the engine).
package final class Lock: @unchecked Sendable {
    private let lock = NSLock()

    package init() {}

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
