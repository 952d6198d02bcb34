import Foundation
import ONNXRuntime

/// Speech tokens decoded to audio while they are written (tools/chatterbox/README.md, "Streaming";
/// upstream has none, this is the third-party practice made exact): chunks of 25, 50, 100, 200, 200, …
/// new tokens (`ChatterboxChunkSchedule.growing`), each decoded with up to 5 tokens of left context after
/// the voice's prompt tokens, the context's audio dropped but for 240 samples that are crossfaded (equal
/// power) with the 240 the previous chunk held back. The final chunk holds the rest and the three silence
/// tokens. Away from the crossfades the stream equals the one-shot decode; its length always does.
struct ChatterboxStream {
    static let contextTokens = 5
    static let crossfade = 240

    let codec: ChatterboxCodec
    let voice: ChatterboxVoice
    let schedule: ChatterboxChunkSchedule
    private(set) var tokens: [Int] = []
    /// The first token of the next chunk.
    private(set) var start = 0
    /// The new tokens of the next chunk if it is not the final one.
    private(set) var chunkTokens: Int
    private var held: [Float] = []
    private(set) var isFinished = false

    init(codec: ChatterboxCodec, voice: ChatterboxVoice, schedule: ChatterboxChunkSchedule = .growing) {
        self.codec = codec
        self.voice = voice
        self.schedule = schedule
        chunkTokens = schedule.first
    }

    /// Adds a speech token; returns a chunk's audio when the next chunk's new tokens are all there (else nothing).
    mutating func append(_ token: Int, options: RunOptions?) throws -> [Float] {
        tokens.append(token)
        guard tokens.count - start >= chunkTokens else { return [] }
        let end = start + chunkTokens
        chunkTokens = schedule.size(after: chunkTokens)
        return try chunk(end: end, final: false, options: options)
    }

    /// The final chunk: the tokens left and the three silence tokens.
    mutating func finish(options: RunOptions?) throws -> [Float] {
        guard !isFinished else { return [] }
        isFinished = true
        return try chunk(end: tokens.count, final: true, options: options)
    }

    private mutating func chunk(end: Int, final: Bool, options: RunOptions?) throws -> [Float] {
        let context = min(Self.contextTokens, start)
        var input = Array(tokens[(start - context)..<end])
        if final { input += Array(repeating: ChatterboxCodec.silence, count: 3) }
        var audio = try codec.decode(input, voice: voice, options: options)
        if start > 0 {
            let drop = context * ChatterboxCodec.samplesPerToken - Self.crossfade
            audio.removeFirst(min(drop, audio.count))
            for i in 0..<min(Self.crossfade, audio.count, held.count) {
                let t = (Double(i) + 0.5) / Double(Self.crossfade)
                audio[i] = Float(Double(held[i]) * cos(.pi / 2 * t) + Double(audio[i]) * sin(.pi / 2 * t))
            }
        }
        if !final {
            held = Array(audio.suffix(Self.crossfade))
            audio.removeLast(min(Self.crossfade, audio.count))
        }
        start = end
        return audio
    }
}
