import Foundation

/// Live input as a stream: a thread of its own reads the recorder (blocking reads of `chunkSeconds`)
/// and hands each chunk on as it is captured, until `stop()` or after `maxSeconds`.
public final class LiveCapture: Sendable {
    /// Mono chunks at `sampleRate`, in order; ends after `stop()` (or `maxSeconds`), throws when the
    /// server fails.
    public let chunks: AsyncThrowingStream<[Float], any Error>
    public let sampleRate: Int
    private let state = CaptureState()

    /// Connects now (so that a missing server or source is reported here), then records on a thread.
    public init(source: String?, sampleRate: Int = 16000, chunkSeconds: Double = 0.064, maxSeconds: Double? = nil) throws(PlaybackError) {
        let recorder = try AudioRecorder(source: source, sampleRate: sampleRate, fragmentSeconds: chunkSeconds)
        self.sampleRate = sampleRate
        let (stream, continuation) = AsyncThrowingStream<[Float], any Error>.makeStream()
        chunks = stream
        let frames = max(1, Int(Double(sampleRate) * chunkSeconds))
        let limit = maxSeconds.map { Int($0 * Double(sampleRate)) }
        let (owned, state) = (RecorderBox(recorder), state)
        continuation.onTermination = { _ in state.stop() }
        let thread = Thread {
            let recorder = owned.recorder
            defer { recorder.close() }
            var captured = 0
            while !state.isStopped {
                let wanted = limit.map { min(frames, $0 - captured) } ?? frames
                if wanted <= 0 { break }
                do {
                    let samples = try recorder.read(frames: wanted)
                    captured += samples.count
                    // Read after a stop: the chunk is dropped, as the capture ended at the stop.
                    if state.isStopped { break }
                    state.add(samples.count)
                    continuation.yield(samples)
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
            continuation.finish()
        }
        thread.name = "warble live capture"
        thread.start()
    }

    /// Ends the capture (within one chunk); the stream finishes.
    public func stop() { state.stop() }

    /// Seconds of audio handed on so far.
    public var capturedSeconds: Double { Double(state.samples) / Double(sampleRate) }
}

/// The stop flag, shared by the capture thread and whoever stops it.
private final class CaptureState: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    var isStopped: Bool { lock.withLock { stopped } }
    var samples: Int { lock.withLock { count } }
    func stop() { lock.withLock { stopped = true } }
    func add(_ samples: Int) { lock.withLock { count += samples } }
}

/// Moves the recorder to its thread once; nothing else touches it afterwards.
private final class RecorderBox: @unchecked Sendable {
    let recorder: AudioRecorder
    init(_ recorder: AudioRecorder) { self.recorder = recorder }
}
