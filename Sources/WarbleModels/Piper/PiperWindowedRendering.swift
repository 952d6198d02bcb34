import ONNXRuntime

/// Decodes Piper's latent z in growing windows (32 frames, then 8× more each time: 256, 2048…), each
/// with `contextFrames` of z on both sides, keeping only the window's own samples: the pieces join into
/// exactly what one-shot decoding gives, and the first piece is out after a small fraction of the work.
///
/// Growth by 8 keeps the overlap small (a typical sentence is two windows: about 10 % more decoder work
/// than one pass, where doubling cost 20–40 %), and each window still decodes far faster than the one
/// before it plays, so a real-time listener never waits between pieces.
final class PiperWindowedRendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece; callers never run it concurrently.
    private let z: [Float]
    private let channels: Int
    private let frames: Int
    private let split: PiperSplit
    private let decoder: Session
    private var nextFrame = 0
    private var windowFrames: Int
    private let maximumWindow: Int
    private let growth: Int
    let wordWeights: [Int]

    init(z: [Float], channels: Int, frames: Int, split: PiperSplit, decoder: Session, wordWeights: [Int],
         firstWindow: Int = 32, growth: Int = 8, maximumWindow: Int = 4096) {
        self.z = z
        self.channels = channels
        self.frames = frames
        self.split = split
        self.decoder = decoder
        self.wordWeights = wordWeights
        self.windowFrames = firstWindow
        self.maximumWindow = maximumWindow
        self.growth = growth
    }

    var totalSamples: Int { frames * split.hopSamples }
    var isFinished: Bool { nextFrame >= frames }

    func nextPiece(options: RunOptions) throws -> [Float] {
        guard !isFinished else { return [] }
        let start = nextFrame
        // Do not leave a sliver for the last window.
        var end = min(frames, start + windowFrames)
        if frames - end < windowFrames / 2 { end = frames }
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
        let audio = try decoder.run([split.latent: window], options: options).tensors[0]
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
