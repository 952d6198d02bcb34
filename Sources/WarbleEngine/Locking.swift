import Foundation

/// A mutual-exclusion lock for the engine's shared caches.
final class EngineLock: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
