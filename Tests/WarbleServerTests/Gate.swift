import Foundation

/// A gate that opens once: `wait()` returns when `open()` was called or the waiting task is cancelled.
/// The fake backends hold their work on one, so a test decides when slow work moves on instead of
/// guessing with delays.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for continuation in waiting { continuation.resume() }
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let open = lock.withLock { () -> Bool in
                    if isOpen { return true }
                    waiters.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}
