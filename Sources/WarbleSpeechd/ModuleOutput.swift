import Foundation

/// Where the module's replies and events go. Each `send` is one whole message (never interleaved
/// with another); messages leave in the order they were sent. A message with a `gate` is dropped if
/// its utterance was stopped by the time it would be written.
public protocol ModuleOutput: Sendable {
    func send(_ bytes: [UInt8], gate: UtteranceToken?)
}

extension ModuleOutput {
    /// Sends one line (a "\n" is added).
    public func send(line: String) {
        send(Array((line + "\n").utf8), gate: nil)
    }

    public func send(_ event: ModuleEvent, gate: UtteranceToken? = nil) {
        send(Array(event.text.utf8), gate: gate)
    }
}

/// Writes to standard output from a thread of its own, so that synthesis never waits on the pipe
/// (speech-dispatcher stops reading while its playback queue is full).
public final class StandardOutputWriter: ModuleOutput, @unchecked Sendable {
    // `queue` and `writing` are guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [(bytes: [UInt8], gate: UtteranceToken?)] = []
    private var writing = false
    private let handle: FileHandle

    public init(handle: FileHandle = .standardOutput) {
        self.handle = handle
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "sd_warble output"
        thread.start()
    }

    public func send(_ bytes: [UInt8], gate: UtteranceToken?) {
        condition.lock()
        queue.append((bytes, gate))
        condition.signal()
        condition.unlock()
    }

    /// Waits until everything sent so far has been written.
    public func flush() {
        condition.lock()
        while !queue.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let item = queue.removeFirst()
            writing = true
            condition.unlock()
            if !(item.gate?.isStopped ?? false) {
                // A broken pipe means the server is gone; speech-dispatcher restarts modules as needed.
                try? handle.write(contentsOf: item.bytes)
            }
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
