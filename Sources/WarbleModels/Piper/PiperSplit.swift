import WarbleSpeech
import ONNXRuntime

/// How a Piper voice was split at its decoder input by the set-up (`tools/models/split_piper.py`):
/// part A (phoneme ids → latent z [1, C, T]) and part B (z → audio, `hopSamples` per frame of z),
/// with the decoder's receptive field in frames of z (`contextFrames` on each side of a window make
/// the window's centre decode exactly as in one pass).
public struct PiperSplit: Sendable, Equatable {
    public var encoder: String
    public var decoder: String
    public var latent: String
    public var hopSamples: Int
    public var contextFrames: Int

    public init(encoder: String, decoder: String, latent: String, hopSamples: Int, contextFrames: Int) {
        self.encoder = encoder
        self.decoder = decoder
        self.latent = latent
        self.hopSamples = hopSamples
        self.contextFrames = contextFrames
    }
}

extension PiperSplit: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(encoder: try c.decode(String.self, forKey: .encoder), decoder: try c.decode(String.self, forKey: .decoder),
                  latent: try c.decode(String.self, forKey: .latent), hopSamples: try c.decode(Int.self, forKey: .hopSamples),
                  contextFrames: try c.decode(Int.self, forKey: .contextFrames))
        guard hopSamples > 0, contextFrames >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .hopSamples, in: c,
                debugDescription: "a Piper split needs hopSamples > 0 and contextFrames >= 0")
        }
    }

    private enum CodingKeys: String, CodingKey { case encoder, decoder, latent, hopSamples, contextFrames }
}

/// The `config` of a Piper manifest (scripts/models/piper.sh): its files, and the split the set-up made.
public struct PiperModelConfiguration: Sendable, Equatable, Codable {
    /// The voice's Piper configuration (`config.json`).
    public var config: String
    /// The whole model, used when there is no split.
    public var model: String
    /// The encoder/decoder split, when the set-up made one.
    public var split: PiperSplit?
    /// A multi-speaker voice's speakers offered as voices: voice id → speaker (a name of the
    /// voice's speaker map).
    public var voiceSpeakers: [String: String]?

    public init(config: String = "config.json", model: String = "model.onnx", split: PiperSplit? = nil,
                voiceSpeakers: [String: String]? = nil) {
        self.config = config
        self.model = model
        self.split = split
        self.voiceSpeakers = voiceSpeakers
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        config = try c.decodeIfPresent(String.self, forKey: .config) ?? "config.json"
        model = try c.decodeIfPresent(String.self, forKey: .model) ?? "model.onnx"
        split = try c.decodeIfPresent(PiperSplit.self, forKey: .split)
        voiceSpeakers = try c.decodeIfPresent([String: String].self, forKey: .voiceSpeakers)
    }

    private enum CodingKeys: String, CodingKey { case config, model, split, voiceSpeakers }
}
