import Foundation
import ONNXRuntime

/// Codes decoded to audio while they are written, as the authors' streaming path does it
/// (neuphonic/neutts `neutts.py _infer_stream_ggml`, with its `_linear_overlap_add`; made exact in
/// tools/neutts/reference.py `stream`): the voice's reference codes come first in the token list, as
/// left context; once `chunk` + 5 tokens wait undecoded, the codes of the tokens from 50 (+1) before
/// them to 5 (+1) after are decoded, the audio of `chunk` + 2 positions from the first waiting one is
/// kept, and the chunks are overlap-added with triangular weights at a stride of `chunk` positions;
/// each call returns the samples that no later chunk can change. The final chunk takes the rest
/// (starting one position early, as the authors' does). Positions count tokens, a token that is not a
/// speech code included (it has no audio of its own), as the authors' token cache does.
struct NeuTTSStream {
    static let lookforward = 5
    static let lookback = 50
    static let overlap = 1

    let codec: NeuCodecDecoder
    let chunk: Int
    /// The reference codes, then every token written: its code, or nil when it is not a speech token.
    private(set) var codes: [Int?]
    private let referenceCount: Int
    /// Tokens decoded so far (the reference's included).
    private var decoded: Int
    private var frames = 0
    /// Overlap-add sums and weights from `emitted` on.
    private var sums: [Float] = []
    private var weights: [Float] = []
    private var emitted = 0
    private(set) var isFinished = false

    init(codec: NeuCodecDecoder, referenceCodes: [Int], chunk: Int) {
        self.codec = codec
        self.chunk = chunk
        codes = referenceCodes.map { $0 }
        referenceCount = referenceCodes.count
        decoded = referenceCodes.count
    }

    /// The tokens written so far.
    var written: Int { codes.count - referenceCount }
    var stride: Int { chunk * NeuCodecDecoder.samplesPerCode }

    /// Adds a token's code (nil: not a speech token); returns a chunk's settled audio when one was
    /// decoded (else nothing).
    mutating func append(_ code: Int?, options: RunOptions?) throws -> [Float] {
        codes.append(code)
        guard codes.count - decoded >= chunk + Self.lookforward else { return [] }
        let start = max(decoded - Self.lookback - Self.overlap, 0)
        let end = min(decoded + chunk + Self.lookforward + Self.overlap, codes.count)
        let audio = try codec.decode(codes[start..<end].compactMap { $0 }, options: options)
        let from = (decoded - start) * NeuCodecDecoder.samplesPerCode
        let to = from + (chunk + 2 * Self.overlap) * NeuCodecDecoder.samplesPerCode
        add(Array(audio[min(from, audio.count)..<min(to, audio.count)]))
        decoded += chunk
        return take(upTo: frames * stride)
    }

    /// The rest: the codes not yet decoded, with what the earlier chunks left unsettled.
    mutating func finish(options: RunOptions?) throws -> [Float] {
        guard !isFinished else { return [] }
        isFinished = true
        let remaining = codes.count - decoded
        if remaining > 0 {
            let start = max(codes.count - (Self.lookback + Self.overlap + remaining), 0)
            let audio = try codec.decode(codes[start...].compactMap { $0 }, options: options)
            let from = max(0, (codes.count - start - remaining - Self.overlap) * NeuCodecDecoder.samplesPerCode)
            add(Array(audio[min(from, audio.count)...]))
        } else if frames == 0 {
            return []
        }
        return take(upTo: emitted + sums.count)
    }

    /// Overlap-adds the next frame at `frames` × stride, weighted by the authors' triangle.
    private mutating func add(_ frame: [Float]) {
        let offset = frames * stride - emitted
        frames += 1
        guard !frame.isEmpty else { return }
        let needed = offset + frame.count
        if sums.count < needed {
            sums += [Float](repeating: 0, count: needed - sums.count)
            weights += [Float](repeating: 0, count: needed - weights.count)
        }
        let n = Float(frame.count + 1)
        for (i, sample) in frame.enumerated() {
            let t = Float(i + 1) / n
            let weight = 0.5 - abs(t - 0.5)
            sums[offset + i] += weight * sample
            weights[offset + i] += weight
        }
    }

    /// The normalised samples before `end` (absolute), dropped from the sums.
    private mutating func take(upTo end: Int) -> [Float] {
        let count = max(0, min(end - emitted, sums.count))
        let out = (0..<count).map { weights[$0] > 0 ? sums[$0] / weights[$0] : 0 }
        sums.removeFirst(count)
        weights.removeFirst(count)
        emitted += count
        return out
    }
}
