import WarbleSpeech
import ONNXRuntime

/// One decoder run on the widest window, done once per voice: ONNX Runtime's memory arena then grows
/// once, to the size every later window fits in, instead of growing (and fragmenting) step by step as
/// windows of other widths arrive. Measured over 150 sentences of varied length: peak memory grew
/// 110 MiB without this, 15 MiB with it.
///
/// The run decodes 6 s of silence (0.2-0.25 s at one thread), a tenth of the work of a paragraph: it
/// runs before the `afterWindows`-th window wider than a request's small first window: the first for a
/// server (its idle memory then already holds the arena), the 16th for a command with cores to spare,
/// so that a short text never pays it and the arena's growth before it stays within those few windows. It
/// costs neither load time nor time to first audio (the first piece is already playing).
final class PiperDecoderPriming: @unchecked Sendable {
    // `done` and `windows` are read and written only under `lock`.
    private let lock = Lock()
    private var done = false
    private var windows = 0
    private let decoder: Session
    private let split: PiperSplit
    /// Wide windows decoded before the priming run.
    let afterWindows: Int

    init(decoder: Session, split: PiperSplit, afterWindows: Int = 16) {
        self.decoder = decoder
        self.split = split
        self.afterWindows = afterWindows
    }

    /// Whether the priming run has been made.
    var isPrimed: Bool { lock.withLock { done } }

    /// Counts a wide window, and primes the decoder before the `afterWindows`-th unless that was done
    /// already (concurrent callers wait for the one run).
    func willDecodeWideWindow() throws {
        try lock.withLock {
            guard !done else { return }
            windows += 1
            guard windows >= afterWindows else { return }
            guard let channels = decoder.input(named: split.latent)?.shape.dropFirst().first?.value else {
                throw ModelError(.badModel, "\(split.decoder): input '\(split.latent)' has no fixed channel count")
            }
            let width = PiperWindowedRendering.maximumWindow + 2 * split.contextFrames
            let zeros = try Tensor([Float](repeating: 0, count: channels * width), shape: [1, channels, width])
            _ = try decoder.run([split.latent: zeros])
            done = true
        }
    }
}
