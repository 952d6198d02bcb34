/// A Piper voice's `.onnx.json`: how to turn phonemes into ids and how to run the model.
public struct PiperConfiguration: Sendable, Decodable {
    public struct Audio: Sendable, Decodable {
        public var sampleRate: Int
        public var quality: String?

        enum CodingKeys: String, CodingKey {
            case sampleRate = "sample_rate"
            case quality
        }
    }

    public struct Espeak: Sendable, Decodable {
        public var voice: String
    }

    public struct Inference: Sendable, Decodable {
        public var noiseScale: Float
        public var lengthScale: Float
        public var noiseW: Float

        enum CodingKeys: String, CodingKey {
            case noiseScale = "noise_scale"
            case lengthScale = "length_scale"
            case noiseW = "noise_w"
        }
    }

    public var audio: Audio
    public var espeak: Espeak
    public var inference: Inference
    public var phonemeType: String?
    /// Each phoneme (one Unicode scalar) to its ids.
    public var phonemeIDMap: [String: [Int]]
    public var numSpeakers: Int?
    /// A multi-speaker voice's speakers by name.
    public var speakerIDMap: [String: Int]?

    enum CodingKeys: String, CodingKey {
        case speakerIDMap = "speaker_id_map"
        case audio, espeak, inference
        case phonemeType = "phoneme_type"
        case phonemeIDMap = "phoneme_id_map"
        case numSpeakers = "num_speakers"
    }
}
