import ONNXRuntime
import WarbleSpeech

/// Decodes Piper's latent z in windows, each with `contextFrames` of z on both sides, keeping only the
/// window's own samples: the pieces join into exactly what one-shot decoding gives.
///
/// A request's first utterance starts with a 32-frame window (0.37 s of audio at 22 kHz), so its first
/// audio is out after a small fraction of the work; the next window is 16 times larger, which a
/// typical sentence finishes in (two windows: 28 frames of overlap). Later utterances start at the
/// largest window, since the audio before them is still playing. Windows never exceed
/// `maximumWindow` frames (512: 6 s of audio), so the decoder's activations, and with them memory,
/// stay the same size however long a sentence is; each window decodes many times faster than the
/// one before it plays, so a real-time listener never waits between pieces.
final class PiperWindowedRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece; callers never run it concurrently.
    private let z: [Float]
    private let channels: Int
    private let frames: Int
    private let split: PiperSplit
    private let decoder: Session
    private let priming: PiperDecoderPriming?
    private var nextFrame = 0
    private var windowFrames: Int
    private let maximumWindow: Int
    private let growth: Int
    let wordWeights: [Int]

    /// The widest window, in frames of z (512: 6 s of audio at 22 kHz).
    static let maximumWindow = 512

    init(z: [Float], channels: Int, frames: Int, split: PiperSplit, decoder: Session,
         priming: PiperDecoderPriming? = nil, wordWeights: [Int],
         firstWindow: Int = 32, growth: Int = 16, maximumWindow: Int = PiperWindowedRendering.maximumWindow) {
        self.z = z
        self.channels = channels
        self.frames = frames
        self.split = split
        self.decoder = decoder
        self.priming = priming
        self.wordWeights = wordWeights
        self.windowFrames = min(firstWindow, maximumWindow)
        self.maximumWindow = maximumWindow
        self.growth = growth
    }

    var totalSamples: Int { frames * split.hopSamples }
    var isFinished: Bool { nextFrame >= frames }

    /// Frames of the window that starts at `start`: the planned size, but never leaving a sliver for
    /// the last window, and at the largest size the rest is shared out evenly.
    private func windowSize(from start: Int) -> Int {
        let remaining = frames - start
        if remaining <= windowFrames { return remaining }
        if windowFrames >= maximumWindow {
            let windows = (remaining + maximumWindow - 1) / maximumWindow
            return (remaining + windows - 1) / windows
        }
        if remaining - windowFrames < windowFrames / 2, remaining <= maximumWindow { return remaining }
        return windowFrames
    }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        guard !isFinished else { return [] }
        let start = nextFrame
        let end = start + windowSize(from: start)
        // Every window but a request's small first one (whose audio is what the listener waits for).
        if start > 0 || end - start > 64 { try priming?.willDecodeWideWindow() }
        let lo = max(0, start - split.contextFrames)
        let hi = min(frames, end + split.contextFrames)
        let width = hi - lo
        let window = try Tensor(shape: [1, channels, width], of: Float.self) { buffer in
            z.withUnsafeBufferPointer { source in
                for channel in 0..<channels {
                    let from = channel * frames + lo
                    let to = channel * width
                    for i in 0..<width { buffer[to + i] = source[from + i] }
                }
            }
        }
        let audio = try cancel.withRunOptions { try decoder.run([split.latent: window], options: $0) }.tensors[0]
        let hop = split.hopSamples
        let piece = try audio.withUnsafeBufferPointer(of: Float.self) { samples -> [Float] in
            let first = (start - lo) * hop
            let last = (end - lo) * hop
            guard samples.count >= last else {
                throw ModelError(.badModel, "the Piper decoder gave \(samples.count) samples for \(width) frames, "
                    + "expected \(width * hop)")
            }
            return Array(samples[first..<last])
        }
        nextFrame = end
        windowFrames = min(windowFrames * growth, maximumWindow)
        return piece
    }
}
