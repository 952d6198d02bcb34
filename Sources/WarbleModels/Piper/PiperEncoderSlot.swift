import Dispatch
import Foundation
import ONNXRuntime

/// A split Piper voice's encoder session, opened fast and then swapped for the lasting one.
///
/// ONNX Runtime spends about 0.4 s of the encoder's 0.5 s load planning memory reuse over its 2,400
/// nodes (measured with the Python binding: 0.12 s with reuse off, which the C API cannot ask for).
/// Its parallel executor does not make that plan (0.08-0.1 s) and runs the encoder as fast, but keeps
/// a second thread busy through each run. So when the engine spares cores (`FamilyContext.sparesCores`:
/// a command with a budget of two cores or more) on a machine of two or more, the voice opens the encoder in
/// parallel mode first, which puts a request's first audio 0.4 s sooner, and from its second run on
/// loads the sequential session on another thread; runs take it as soon as it is there, and the
/// parallel one is released when its last run ends. The two give the same output (the same kernels in
/// another order of independent nodes).
///
/// A process may end before the background load does (a short `warble say`): ONNX Runtime's static
/// objects would then be torn down under the loading thread (it crashed). The loads are counted in
/// `PiperEncoderSlot.inFlight`, and an exit handler, registered before the first load, waits for them.
final class PiperEncoderSlot: @unchecked Sendable {
    // `session`, `lasting`, `error`, `runs` and `loadStarted` are read and written only under `lock`.
    private let lock = Lock()
    private var session: Session
    private var lasting: Bool
    private var error: (any Error)?
    private var runs = 0
    private var loadStarted = false
    private let loaded = DispatchGroup()
    private let url: URL
    private let options: SessionOptions

    /// Runs on the parallel session before the sequential one is loaded: a one-sentence command ends
    /// without loading it (and without waiting for it at exit).
    static let runsBeforeLoad = 2

    /// Opens the encoder at `url`; with `fastStart`, in parallel mode first (see the type's comment).
    init(url: URL, options: SessionOptions, fastStart: Bool) throws {
        self.url = url
        self.options = options
        guard fastStart else {
            session = try Session(contentsOf: url, options: options)
            lasting = true
            return
        }
        var quick = options
        quick.parallelExecution = true
        quick.interOpThreads = 2
        session = try Session(contentsOf: url, options: quick)
        lasting = false
    }

    /// The session for the next run; the `runsBeforeLoad`-th starts loading the sequential one.
    func sessionForRun() -> Session {
        lock.withLock {
            runs += 1
            if !lasting, !loadStarted, runs >= Self.runsBeforeLoad {
                loadStarted = true
                startLoad()
            }
            return session
        }
    }

    private func startLoad() {
        Self.registerExitWait
        loaded.enter()
        Self.inFlight.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { loaded.leave(); Self.inFlight.leave() }
            do {
                let lastingSession = try Session(contentsOf: url, options: options)
                lock.withLock { (session, lasting) = (lastingSession, true) }
            } catch {
                // The parallel session keeps serving (same output, more CPU); the error is kept.
                lock.withLock { self.error = error }
            }
        }
    }

    /// The session now, without counting a run (for its inputs and outputs).
    var current: Session { lock.withLock { session } }

    /// Whether the sequential session has replaced the parallel one.
    var isLasting: Bool { lock.withLock { lasting } }

    /// Why the sequential session could not be loaded, if it could not.
    var loadError: (any Error)? { lock.withLock { error } }

    /// Waits until a background load started has ended (at once when none has started).
    func waitUntilLoaded() { loaded.wait() }

    /// Background loads not yet ended, in the whole process.
    private static let inFlight = DispatchGroup()

    /// Registers, once, the exit handler that waits for `inFlight` (handlers run in reverse order of
    /// registration, so before ONNX Runtime's own teardown, registered when its library was loaded).
    private static let registerExitWait: Void = { atexit { PiperEncoderSlot.inFlight.wait() } }()

    /// The best number of cores for a fast start: two or more.
    static var fastStartByDefault: Bool { ProcessInfo.processInfo.activeProcessorCount >= 2 }
}
