import ServiceLifecycle
import UnixSignals

/// Cuts a drain short: the first SIGTERM or SIGINT starts the service group's graceful shutdown; a second
/// one throws `SecondSignal`, which cancels the group at once (requests still running are cut off).
/// (The group cannot take the same signals for graceful shutdown and for cancellation.) First in the group,
/// so that the drain reaches it last, once the application has stopped.
struct SecondSignalService: Service {
    let signals: [UnixSignal]

    struct SecondSignal: Error, CustomStringConvertible {
        let signal: UnixSignal
        var description: String { "a second \(signal) during the drain" }
    }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var seen = 0
                for await signal in await UnixSignalsSequence(trapping: signals) {
                    seen += 1
                    if seen == 2 { throw SecondSignal(signal: signal) }
                }
            }
        } catch is CancellationError {
            // Its turn in the drain came: the application has stopped.
        }
    }
}
