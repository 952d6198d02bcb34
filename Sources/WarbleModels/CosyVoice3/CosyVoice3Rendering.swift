import Foundation
import ONNXRuntime
import WarbleSpeech

/// An utterance streamed as the reference's `CosyVoice3Model.tts(stream=True)` does: speech tokens
/// are generated only as far as the next chunk needs; a chunk of `hop` tokens runs once `hop + 3`
/// (lookahead) tokens past the offset exist — 25 at first (plus what pads the prompt's tokens to a
/// multiple of 25), doubling per chunk up to 100. Each chunk runs the flow over every token so far
/// (non-final: the last 3 only as lookahead) and keeps the new frames; HiFT runs over the accumulated
/// mel and hands out the samples past those already given. When the LLM stops, a final chunk
/// finishes the rest. The first audio comes after the first chunk, long before the utterance ends.
///
/// The utterance's length is known only when its tokens are: `totalSamples` is exact once the LLM
/// has stopped and an estimate before (the prompt's speech tokens per text token, times the text's).
final class CosyVoice3Rendering: UtteranceRendering, @unchecked Sendable {
    // Mutated only by nextPiece, which callers never run concurrently.
    static let firstHop = 25
    static let maxHop = 100

    let model: CosyVoice3Model
    let request: CosyVoice3Request
    let wordWeights: [Int]
    private var generation: CosyVoice3TokenGeneration
    private(set) var tokens: [Int] = []
    private(set) var tokenOffset = 0
    private var hop = CosyVoice3Rendering.firstHop
    private let promptPad: Int
    /// Accumulated mel, frame-major `[frames, 80]`.
    private var mel: [Float] = []
    private var melFrames = 0
    private var speechOffset = 0
    private var speaker: [Float]?
    private(set) var isFinished = false
    /// What each chunk did (for tests and diagnostics): token offset, hop, tokens used, final or not, samples.
    private(set) var chunks: [(tokenOffset: Int, hop: Int, tokensUsed: Int, finalize: Bool, samples: Int)] = []

    init(model: CosyVoice3Model, request: CosyVoice3Request, wordWeights: [Int]) {
        self.model = model
        self.request = request
        self.wordWeights = wordWeights
        generation = request.generation(model.llm)
        let prompt = request.prompt.tokens.count
        promptPad = (prompt + Self.firstHop - 1) / Self.firstHop * Self.firstHop - prompt
    }

    /// Whether the LLM has stopped (all the utterance's tokens are known).
    var tokensAreComplete: Bool { generation.isFinished }

    var lengthIsExact: Bool { generation.isFinished }

    var totalSamples: Int {
        if generation.isFinished { return tokens.count * CosyVoice3Flow.tokenMelRatio * CosyVoice3HiFT.samplesPerFrame }
        let perTextToken = Double(request.prompt.tokens.count) / Double(max(1, request.transcriptTokenCount))
        let estimate = Int(perTextToken * Double(request.ttsTextIDs.count))
        let bounded = min(max(estimate, generation.minLength, tokens.count), generation.maxLength)
        return bounded * CosyVoice3Flow.tokenMelRatio * CosyVoice3HiFT.samplesPerFrame
    }

    func nextPiece(cancel: CancellationToken) throws -> [Float] {
        guard !isFinished else { return [] }
        let thisHop = tokenOffset == 0 ? hop + promptPad : hop
        let needed = tokenOffset + thisHop + CosyVoice3Flow.lookaheadTokens
        while tokens.count < needed, let token = try generation.next(cancel: cancel) { tokens.append(token) }
        let finalize = tokens.count < needed
        let used = finalize ? tokens.count : needed
        let piece = try cancel.withRunOptions { options -> [Float] in
            let speaker = try self.speaker ?? model.flow.speaker(request.prompt.embedding, options: options)
            self.speaker = speaker
            let chunk = try model.flow.mel(tokens: Array(tokens[0..<used]), prompt: request.prompt, speaker: speaker,
                                           noise: request.noise, finalize: finalize, options: options)
            append(chunk, from: tokenOffset * CosyVoice3Flow.tokenMelRatio)
            guard melFrames > 0 else { return [] }
            let audio = try model.hift.audio(mel: channelMajorMel(), frames: melFrames, finalize: finalize, options: options)
            return speechOffset < audio.count ? Array(audio[speechOffset...]) : []
        }
        speechOffset += piece.count
        chunks.append((tokenOffset, finalize ? tokens.count - tokenOffset : thisHop, used, finalize, piece.count))
        if finalize {
            isFinished = true
            mel = []
        } else {
            tokenOffset += thisHop
            hop = min(Self.maxHop, hop * 2)
        }
        return piece
    }

    /// Appends the frames of `chunk` (`[80, frames]`) from frame `start` on.
    private func append(_ chunk: (values: [Float], frames: Int), from start: Int) {
        guard chunk.frames > start else { return }
        let channels = CosyVoice3Flow.channels
        for t in start..<chunk.frames {
            for k in 0..<channels { mel.append(chunk.values[k * chunk.frames + t]) }
        }
        melFrames += chunk.frames - start
    }

    private func channelMajorMel() -> [Float] {
        let channels = CosyVoice3Flow.channels
        var out = [Float](repeating: 0, count: mel.count)
        for t in 0..<melFrames {
            for k in 0..<channels { out[k * melFrames + t] = mel[t * channels + k] }
        }
        return out
    }
}
