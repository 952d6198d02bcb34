/// What a model family speaks a cloned voice with, one case per kind of conditioning. Kept in a
/// `VoiceProfile`; made by the family's `VoiceEncoder` (or found by a search, for Kokoro).
public enum VoiceConditioning: Sendable, Equatable, Codable {
    /// A table of style vectors chosen by utterance length (Kokoro: 510 rows of 256).
    case styleTable(StoredTensor)
    /// A speaker embedding, the prompt's speech tokens and mel frames, and what the prompt says
    /// (CosyVoice 3).
    case speakerPrompt(embedding: StoredTensor, promptTokens: [Int], promptMel: StoredTensor, transcript: String)
    /// Named encoder outputs, fed back as they are (Chatterbox Turbo's `audio_features`,
    /// `audio_tokens`, `speaker_embeddings`, `speaker_features`).
    case encoderOutputs([String: StoredTensor])
    /// A reference clip as codec codes, with what it says (NeuTTS).
    case referenceCodes(codes: [Int], transcript: String)

    /// The case's name, as the profile file writes it.
    public var kind: String {
        switch self {
        case .styleTable: "styleTable"
        case .speakerPrompt: "speakerPrompt"
        case .encoderOutputs: "encoderOutputs"
        case .referenceCodes: "referenceCodes"
        }
    }
}

/// A tensor kept in a profile: its shape and values. Floats only: the conditioning of every family
/// is float (token ids go in plain `[Int]`); a family converts to the element type its session asks for.
public struct StoredTensor: Sendable, Equatable, Codable {
    public var shape: [Int]
    public var values: [Float]

    /// A tensor of `shape` holding `values`; nil when their counts differ or a dimension is negative.
    public init?(shape: [Int], values: [Float]) {
        guard shape.allSatisfy({ $0 >= 0 }), shape.reduce(1, *) == values.count else { return nil }
        self.shape = shape
        self.values = values
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let shape = try container.decode([Int].self, forKey: .shape)
        let values = try container.decode([Float].self, forKey: .values)
        guard let tensor = StoredTensor(shape: shape, values: values) else {
            throw DecodingError.dataCorruptedError(forKey: .values, in: container,
                debugDescription: "a tensor of shape \(shape) cannot hold \(values.count) values")
        }
        self = tensor
    }

    private enum CodingKeys: String, CodingKey { case shape, values }
}
