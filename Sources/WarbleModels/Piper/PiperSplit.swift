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

    init?(_ json: JSONValue?) {
        guard let json, let encoder = json["encoder"]?.string, let decoder = json["decoder"]?.string,
              let latent = json["latent"]?.string, let hop = json["hopSamples"]?.int, let context = json["contextFrames"]?.int,
              hop > 0, context >= 0
        else { return nil }
        self.encoder = encoder
        self.decoder = decoder
        self.latent = latent
        self.hopSamples = hop
        self.contextFrames = context
    }
}
