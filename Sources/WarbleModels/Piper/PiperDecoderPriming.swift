import WarbleSpeech
import ONNXRuntime

/// One decoder run on the widest window, done once per voice: ONNX Runtime's memory arena then grows
/// once, to the size every later window fits in, instead of growing (and fragmenting) step by step as
/// windows of other widths arrive. Measured over 150 sentences of varied length: peak memory grew
/// 110 MiB without this, 15 MiB with it.
///
/// It runs just before the first window wider than a request's small first window, so it costs
/// neither load time nor time to first audio (the first piece is already playing).
final class PiperDecoderPriming: @unchecked Sendable {
    // `done` is read and written only under `lock`.
    private let lock = Lock()
    private var done = false
    private let decoder: Session
    private let split: PiperSplit

    init(decoder: Session, split: PiperSplit) {
        self.decoder = decoder
        self.split = split
    }

    /// Primes the decoder unless that was done already (concurrent callers wait for the one run).
    func primeOnce() throws {
        try lock.withLock {
            guard !done else { return }
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
