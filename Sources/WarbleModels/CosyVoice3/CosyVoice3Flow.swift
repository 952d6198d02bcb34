import Foundation
import ONNXRuntime
import WarbleSpeech

/// CosyVoice 3's flow (seed-models.md §1.6): speech tokens → mel frames (two per token), by
/// conditional flow matching: the token embedding with 3 tokens of lookahead gives the mean, the
/// prompt's mel the condition, and 10 Euler steps on a cosine time schedule with classifier-free
/// guidance (the estimator runs a batch of 2: conditioned and not) move noise to the mel.
struct CosyVoice3Flow: Sendable {
    static let tokenMelRatio = 2
    static let lookaheadTokens = 3
    static let steps = 10
    static let guidance: Float = 0.7
    static let channels = 80

    let tokenEmbedding: ModelGraph
    let preLookahead: ModelGraph
    let speakerProjection: ModelGraph
    let estimator: ModelGraph

    init(files: CosyVoice3Files, options: SessionOptions) throws {
        tokenEmbedding = try ModelGraph(files.flowTokenEmbedding, model: "CosyVoice 3", role: "flow token embedding", inputs: [.index("token")],
                                             outputs: ["embedded"], options: options)
        preLookahead = try ModelGraph(files.preLookahead, model: "CosyVoice 3", role: "flow pre-lookahead layer", inputs: [.float("token_embedded")],
                                           outputs: ["h"], options: options)
        speakerProjection = try ModelGraph(files.speakerProjection, model: "CosyVoice 3", role: "flow speaker projection",
                                                inputs: [.float("embedding")], outputs: ["projected"], options: options)
        estimator = try ModelGraph(files.estimator, model: "CosyVoice 3", role: "flow estimator",
                                        inputs: ["x", "mask", "mu", "t", "spks", "cond"].map { .float($0) },
                                        outputs: ["estimator_out"], options: options)
    }

    /// The projected speaker `[80]` of an embedding (L2-normalised first).
    func speaker(_ embedding: [Float], options: RunOptions?) throws -> [Float] {
        let norm = max(embedding.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot(), 1e-12)
        let normalised = embedding.map { $0 / norm }
        let outputs = try speakerProjection.run(
            ["embedding": try speakerProjection.floats(normalised, shape: [1, normalised.count], for: "embedding")], options: options)
        return try ModelTensors.read(outputs, "projected").values
    }

    /// The mel `[80, frames]` (channel-major) of `tokens` spoken as `prompt`, without the prompt's frames.
    /// `finalize` false: the last 3 tokens are lookahead only (their frames are not made), as the
    /// reference's streaming chunks run.
    func mel(tokens: [Int], prompt: CosyVoice3Prompt, speaker: [Float], noise: CosyVoice3Noise, finalize: Bool,
             options: RunOptions?) throws -> (values: [Float], frames: Int) {
        let all = prompt.tokens + tokens
        let embedded = try tokenEmbedding.run(["token": try tokenEmbedding.indices(all, shape: [1, all.count], for: "token")],
                                              options: options)
        let (e, eShape) = try ModelTensors.read(embedded, "embedded")
        let width = eShape.last ?? Self.channels
        let h = try preLookahead.run(["token_embedded": try preLookahead.floats(e, shape: [1, all.count, width], for: "token_embedded")],
                                     options: options)
        let (rows, hShape) = try ModelTensors.read(h, "h")
        guard hShape.count == 3, hShape[2] == Self.channels, hShape[1] == Self.tokenMelRatio * all.count else {
            throw ModelError(.badModel, "the pre-lookahead layer gave h of shape \(hShape); expected [1, \(Self.tokenMelRatio * all.count), 80]")
        }
        let frames = hShape[1] - (finalize ? 0 : Self.tokenMelRatio * Self.lookaheadTokens)
        let promptFrames = prompt.melFrames
        guard frames >= promptFrames else {
            throw ModelError(.badInput, "the flow has \(frames) frames for a prompt of \(promptFrames)")
        }
        let c = Self.channels
        // mu = hᵀ, cond = the prompt's mel in the first frames.
        var mu = [Float](repeating: 0, count: c * frames)
        var cond = [Float](repeating: 0, count: c * frames)
        for t in 0..<frames {
            for k in 0..<c {
                mu[k * frames + t] = rows[t * c + k]
                if t < promptFrames { cond[k * frames + t] = prompt.mel[t * c + k] }
            }
        }
        var x = try noise.values(frames: frames)
        let solved = try solve(&x, mu: mu, cond: cond, speaker: speaker, frames: frames, options: options)
        var mel = [Float](repeating: 0, count: c * (frames - promptFrames))
        let kept = frames - promptFrames
        for k in 0..<c {
            for t in 0..<kept { mel[k * kept + t] = solved[k * frames + promptFrames + t] }
        }
        return (mel, kept)
    }

    /// The cosine schedule 1 − cos(k/10 · π/2), k = 0…10, in single precision as the reference makes it.
    static var timeSpan: [Float] {
        (0...steps).map { k in 1 - cos(Float(k) / Float(steps) * 0.5 * Float.pi) }
    }

    /// Euler steps with classifier-free guidance; t and dt accumulate as the reference's loop does.
    private func solve(_ x: inout [Float], mu: [Float], cond: [Float], speaker: [Float], frames: Int,
                       options: RunOptions?) throws -> [Float] {
        let span = Self.timeSpan
        var t = span[0]
        var dt = span[1] - span[0]
        let n = Self.channels * frames
        let zeros = [Float](repeating: 0, count: n)
        let mask = try estimator.floats([Float](repeating: 1, count: 2 * frames), shape: [2, 1, frames], for: "mask")
        let muIn = try estimator.floats(mu + zeros, shape: [2, Self.channels, frames], for: "mu")
        let condIn = try estimator.floats(cond + zeros, shape: [2, Self.channels, frames], for: "cond")
        let spksIn = try estimator.floats(speaker + [Float](repeating: 0, count: speaker.count), shape: [2, speaker.count], for: "spks")
        for step in 1...Self.steps {
            let outputs = try estimator.run([
                "x": try estimator.floats(x + x, shape: [2, Self.channels, frames], for: "x"),
                "mask": mask, "mu": muIn, "t": try estimator.floats([t, t], shape: [2], for: "t"),
                "spks": spksIn, "cond": condIn,
            ], options: options)
            let v = try ModelTensors.read(outputs, "estimator_out").values
            guard v.count == 2 * n else {
                throw ModelError(.badModel, "the estimator gave \(v.count) values; expected [2, 80, \(frames)]")
            }
            let a = 1 + Self.guidance, b = Self.guidance
            for i in 0..<n { x[i] += dt * (a * v[i] - b * v[n + i]) }
            t += dt
            if step < Self.steps { dt = span[step + 1] - t }
        }
        return x
    }
}
