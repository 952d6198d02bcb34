import WarbleSpeech
import ONNXRuntime
import WarbleAudio

/// One 30 s window run through the encoder: the cross-attention K/V of every decoder layer
/// (batch 1; the decoder broadcasts them over beams).
public struct WhisperEncoding: Sendable {
    let crossFeeds: [String: Tensor]
}

extension WhisperModel {
    /// Encodes one window of features, `[melCount, 3000]` row-major (mel-major).
    public func encode(window: [Float], options: RunOptions? = nil) throws -> WhisperEncoding {
        let c = configuration
        guard window.count == c.melCount * c.frames else {
            throw ModelError(.failed, "an encoder window holds \(c.melCount)×\(c.frames) values, got \(window.count)")
        }
        let mel = try Tensor(window, shape: [1, c.melCount, c.frames])
        let wanted = (0..<c.decoderLayers).flatMap { ["cross_k_\($0)", "cross_v_\($0)"] }
        let outputs = try encoder.run(["mel": mel], outputs: wanted, options: options)
        var feeds: [String: Tensor] = [:]
        for name in wanted { feeds[name] = try outputs.tensor(name) }
        return WhisperEncoding(crossFeeds: feeds)
    }

    /// faster-whisper's encoder input for the window starting at frame `start` of `features`
    /// (`[frames, melCount]` as WhisperLogMel gives): `count` frames, zero-padded to 3000, transposed
    /// to `[melCount, 3000]`.
    public func window(of features: FeatureMatrix, start: Int, count: Int) -> [Float] {
        let c = configuration
        var out = [Float](repeating: 0, count: c.melCount * c.frames)
        let n = max(0, min(count, c.frames, features.rows - start))
        features.values.withUnsafeBufferPointer { v in
            out.withUnsafeMutableBufferPointer { o in
                for t in 0..<n {
                    let row = (start + t) * features.columns
                    for m in 0..<c.melCount { o[m * c.frames + t] = v[row + m] }
                }
            }
        }
        return out
    }
}
