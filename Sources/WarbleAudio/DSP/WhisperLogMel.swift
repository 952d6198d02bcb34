/// Whisper's log-mel features as faster-whisper computes them (16 kHz mono in): right-pad `padding`
/// zeros, STFT n_fft 400 / hop 160 / periodic Hann / centred with reflect padding, |X|², drop the last
/// frame, Slaney mels (80 or 128), log10(max(x, 1e-10)), floor at (global max − 8), (x + 4) / 4.
public struct WhisperLogMel: Sendable {
    public static let sampleRate = 16000
    public static let hopLength = 160
    public static let fftLength = 400
    /// Frames the encoder takes (30 s).
    public static let encoderFrames = 3000

    public let melCount: Int
    private let mel: MelSpectrogram

    /// `melCount`: 80 (Whisper up to large-v2) or 128 (large-v3, CosyVoice's speech tokenizer).
    public init(melCount: Int = 80) {
        self.melCount = melCount
        mel = MelSpectrogram(
            sampleRate: Self.sampleRate,
            stft: STFT(fftLength: Self.fftLength, hopLength: Self.hopLength, window: .hann, center: true),
            filterbank: MelFilterbank(sampleRate: Self.sampleRate, fftLength: Self.fftLength, melCount: melCount),
            spectrum: .power, compression: .log10(floor: 1e-10))
    }

    /// `[frames, melCount]` (transpose for the encoder's `[melCount, frames]`); frames =
    /// (samples + padding) / 160.
    public func callAsFunction(_ samples: [Float], padding: Int = 160) -> FeatureMatrix {
        precondition(padding >= 0)
        let input = padding == 0 ? samples : samples + [Float](repeating: 0, count: padding)
        var features = mel(input)
        features.dropLastRow()
        guard let peak = features.values.max() else { return features }
        let floor = peak - 8
        features.values.withUnsafeMutableBufferPointer { v in
            for i in v.indices { v[i] = (max(v[i], floor) + 4) / 4 }
        }
        return features
    }
}
