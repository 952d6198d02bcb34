import WarbleSpeech

/// One forward pass decoded as sherpa-onnx decodes it: CTC greedy over the T + 4 frames; the first four
/// tokens are the language, emotion, event and ITN tags; the rest are the text, each timed at
/// (frame − 4) × the frame length.
public struct SenseVoiceResult: Sendable, Equatable {
    /// The text tokens (the four tags left out).
    public var tokens: [Int]
    /// Seconds from the start of the decoded audio, one per token.
    public var times: [Double]
    public var text: String
    /// The tags as the model wrote them ("<|en|>", "<|NEUTRAL|>", "<|Speech|>"); empty when it gave fewer.
    public var language: String
    public var emotion: String
    public var event: String

    public static let promptFrames = 4

    public init(tokens: [Int], times: [Double], text: String, language: String, emotion: String, event: String) {
        self.tokens = tokens
        self.times = times
        self.text = text
        self.language = language
        self.emotion = emotion
        self.event = event
    }

    /// Decodes the first `frames` rows of `logits` (`frames` × the table's size or more values).
    public init(logits: UnsafeBufferPointer<Float>, frames: Int, table: TokenTable, blank: Int, frameSeconds: Double) {
        let decoded = CTCGreedy.decode(logits, frames: frames, vocabulary: table.count, blank: blank)
        let start = min(Self.promptFrames, decoded.count)
        let text = decoded[start...]
        tokens = text.map(\.token)
        times = text.map { frameSeconds * Double($0.frame - Self.promptFrames) }
        self.text = table.text(tokens)
        let tags = decoded.count >= 3 ? decoded.prefix(3).map { table[$0.token] } : ["", "", ""]
        (language, emotion, event) = (tags[0], tags[1], tags[2])
    }

    /// A tag's name without its brackets ("<|en|>" → "en").
    public static func name(ofTag tag: String) -> String {
        guard tag.hasPrefix("<|"), tag.hasSuffix("|>"), tag.count > 4 else { return tag }
        return String(tag.dropFirst(2).dropLast(2))
    }

    /// The tags by name, for a transcript segment's `tags`.
    public var tagNames: [String: String] {
        var out: [String: String] = [:]
        for (key, tag) in [("language", language), ("emotion", emotion), ("event", event)] where !tag.isEmpty {
            out[key] = Self.name(ofTag: tag)
        }
        return out
    }
}
