import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) and SIGTERM into a call of `onSignal` (which cancels the work), so that what
/// was produced is finished properly instead of the process dying mid-write. A second signal ends the
/// process at once, as usual.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []
    private static let signals = [SIGINT, SIGTERM]

    /// The signal that arrived, if any.
    var signal: Int32? { lock.withLock { received } }

    static func watch(_ onSignal: @escaping @Sendable () -> Void) -> Interruption {
        let interruption = Interruption()
        for number in signals {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak interruption] in
                guard let interruption else { return }
                let first = interruption.lock.withLock { () -> Bool in
                    defer { if interruption.received == nil { interruption.received = number } }
                    return interruption.received == nil
                }
                if first {
                    onSignal()
                } else {
                    Foundation.signal(number, SIG_DFL)
                    raise(number)
                }
            }
            source.resume()
            interruption.sources.append(source)
        }
        return interruption
    }

    /// Restores the default handling.
    func stop() {
        lock.withLock {
            for source in sources { source.cancel() }
            sources = []
        }
        for number in Self.signals { Foundation.signal(number, SIG_DFL) }
    }
}
