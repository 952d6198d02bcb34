import Foundation

/// The state of one message being spoken, shared by the request handler (STOP, PAUSE), the synthesis
/// task and the output writer, which drops audio and marks of a message that is already over.
public final class UtteranceToken: @unchecked Sendable {
    // All state behind `lock`.
    private let lock = NSLock()
    private var finished = false
    private var stopped = false
    private var pauseWanted = false

    public init() {}

    /// Whether the message may still send audio and marks.
    public var isOpen: Bool { lock.withLock { !finished } }

    /// Whether the message was stopped: what it queued and was not written yet is dropped.
    public var isStopped: Bool { lock.withLock { stopped } }

    /// Whether PAUSE was asked for (the message stops after its next `__spd_` mark).
    public var isPauseRequested: Bool { lock.withLock { pauseWanted } }

    public func requestPause() { lock.withLock { pauseWanted = true } }

    /// Closes the message; true for the first caller only, who then sends the final event. A message
    /// that ends (END, PAUSE) still delivers what it queued; a stopped one does not.
    public func finish(stopping: Bool = false) -> Bool {
        lock.withLock {
            if finished { return false }
            finished = true
            stopped = stopping
            return true
        }
    }
}
