import Foundation

/// Opt-in accounting of the wall time spent inside ONNX Runtime's Run, summed over every session of
/// the process. For benchmarks that separate the model's own time from the pipeline around it
/// (`warble bench tts`); off unless started, and then a run costs two clock reads and a lock.
public enum RunTimer {
    /// Runs counted and the seconds spent inside them.
    public struct Totals: Sendable, Equatable {
        public var runs: Int
        public var seconds: Double
    }

    private static let state = RunTimerState()

    /// Clears the totals and starts counting.
    public static func start() {
        state.lock.withLock {
            state.enabled = true
            state.totals = Totals(runs: 0, seconds: 0)
        }
    }

    /// Stops counting; returns the totals since `start()`.
    @discardableResult
    public static func stop() -> Totals {
        state.lock.withLock {
            state.enabled = false
            return state.totals
        }
    }

    /// The totals so far.
    public static var totals: Totals { state.lock.withLock { state.totals } }

    /// The start of a run when counting, nil otherwise.
    static func begin() -> ContinuousClock.Instant? {
        state.lock.withLock { state.enabled } ? ContinuousClock.now : nil
    }

    static func end(_ start: ContinuousClock.Instant?) {
        guard let start else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.lock.withLock {
            guard state.enabled else { return }
            state.totals.runs += 1
            state.totals.seconds += seconds
        }
    }
}

/// The counters behind `RunTimer`; every access goes through `lock`.
private final class RunTimerState: @unchecked Sendable {
    let lock = Lock()
    var enabled = false
    var totals = RunTimer.Totals(runs: 0, seconds: 0)
}
