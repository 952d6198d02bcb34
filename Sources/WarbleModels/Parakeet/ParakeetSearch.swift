import WarbleAudio
import WarbleSpeech

/// TDT greedy search as sherpa-onnx's DecodeOneTDT does it: the joiner on the current encoder frame and the
/// prediction after the last token; the token is the argmax of the token logits, the skip the argmax of the
/// duration logits. A token (not the blank) is kept, timed at the frame, and the prediction network runs on it; the
/// search then moves `skip` frames, but a blank with skip 0 moves one, and after 5 tokens on one frame it moves one.
public struct ParakeetSearch: Sendable, Equatable {
    /// The tokens, the encoder frame each was emitted on and its duration in frames.
    public var tokens: [Int] = []
    public var frames: [Int] = []
    public var durations: [Int] = []

    public static let maximumTokensPerFrame = 5

    public init(tokens: [Int] = [], frames: [Int] = [], durations: [Int] = []) {
        self.tokens = tokens
        self.frames = frames
        self.durations = durations
    }

    /// The search over `encoded` (`[frames, width]`) with `model`'s prediction network and joiner.
    init(encoded: FeatureMatrix, model: ParakeetModel, cancel: CancellationToken) throws {
        let vocabulary = model.metadata.vocabularySize, blank = model.metadata.blank
        var prediction = try model.predict(blank, states: nil, cancel: cancel)
        var t = 0, onFrame = 0
        while t < encoded.rows {
            let logits = try model.join(encoded.row(t), prediction.output, cancel: cancel)
            guard logits.count > vocabulary else {
                throw ModelError(.badModel, "the joiner gave \(logits.count) logits, not \(vocabulary) tokens and the durations")
            }
            let token = Self.argmax(logits[0..<vocabulary])
            var skip = Self.argmax(logits[vocabulary...])
            if token != blank {
                tokens.append(token)
                frames.append(t)
                durations.append(skip)
                prediction = try model.predict(token, states: prediction.states, cancel: cancel)
                onFrame += 1
            }
            if skip > 0 { onFrame = 0 }
            if onFrame >= Self.maximumTokensPerFrame { onFrame = 0; skip = 1 }
            if token == blank && skip == 0 { onFrame = 0; skip = 1 }
            t += skip
        }
    }

    /// The first index of the largest value (std::max_element's choice), as an offset from the slice's start.
    static func argmax(_ values: ArraySlice<Float>) -> Int {
        var best = values.startIndex
        for i in values.indices where values[i] > values[best] { best = i }
        return best - values.startIndex
    }
}
