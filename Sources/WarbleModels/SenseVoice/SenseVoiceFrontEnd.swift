import WarbleAudio
import WarbleSpeech

/// SenseVoice's features as sherpa-onnx computes them: Kaldi fbank (80 bins, 25 ms frames every 10 ms, hamming
/// window, snip edges, no dither, 20 Hz to Nyquist) of 16 kHz samples (× 32768 unless the metadata says
/// normalize_samples), LFR stacking (window and shift from the metadata), then CMVN (x + neg_mean) · inv_stddev.
public struct SenseVoiceFrontEnd: Sendable {
    public static let sampleRate = 16000
    /// Seconds per output frame: 10 ms × the LFR shift.
    public let frameSeconds: Double
    let fbank: KaldiFbank
    let lfr: LowFrameRate
    let negativeMean: [Float]
    let inverseStandardDeviation: [Float]

    public init(metadata: SenseVoiceMetadata) {
        var options = KaldiFbank.Options()
        options.sampleRate = Self.sampleRate
        options.melCount = metadata.melCount
        options.window = .hamming(periodic: false)
        options.lowFrequency = 20
        options.highFrequency = 0
        options.inputScale = metadata.normalizeSamples ? 1 : 32768
        fbank = KaldiFbank(options: options)
        lfr = LowFrameRate(window: metadata.lfrWindow, shift: metadata.lfrShift)
        negativeMean = metadata.negativeMean
        inverseStandardDeviation = metadata.inverseStandardDeviation
        frameSeconds = 0.01 * Double(metadata.lfrShift)
    }

    /// Mono 16 kHz samples of any buffer, resampled as sherpa-onnx resamples (Kaldi's LinearResample), so that a
    /// 44.1 kHz file gives its features.
    public static func samples(_ audio: AudioBuffer) throws -> [Float] {
        let mono = try RecognitionAudio.monoSamples(audio, sampleRate: audio.sampleRate)
        guard audio.sampleRate != sampleRate else { return mono }
        return KaldiLinearResampler(from: audio.sampleRate, to: sampleRate)(mono)
    }

    /// `[ceil(fbank frames / shift), mels × window]` features of 16 kHz samples in [-1, 1]; no rows when the
    /// audio is shorter than one 25 ms frame.
    public func callAsFunction(_ samples: [Float]) -> FeatureMatrix {
        let stacked = lfr(fbank(samples))
        let width = stacked.columns
        var values = stacked.values
        values.withUnsafeMutableBufferPointer { values in
            negativeMean.withUnsafeBufferPointer { mean in
                inverseStandardDeviation.withUnsafeBufferPointer { scale in
                    for row in 0..<stacked.rows {
                        let base = row * width
                        for c in 0..<width { values[base + c] = (values[base + c] + mean[c]) * scale[c] }
                    }
                }
            }
        }
        return FeatureMatrix(rows: stacked.rows, columns: width, values: values)
    }
}
