import Foundation
import WarbleAudio
import WarbleSpeech

/// Parakeet's features as sherpa-onnx 2.0.1 computes them for NeMo transducers: kaldi-native-fbank of 16 kHz samples in
/// [-1, 1] (25 ms frames every 10 ms centred on each shift, not snipped; povey window; pre-emphasis 0.97; no DC
/// removal; no dither; 512-point FFT; librosa's Slaney filters from 0 Hz to 7600 Hz; ln(energy + 2⁻²⁴)), then each
/// mel bin normalised over the frames to mean 0 and (population) standard deviation 1, the deviation plus 1e-5.
public struct ParakeetFrontEnd: Sendable {
    public static let sampleRate = 16000
    let fbank: KaldiFbank
    let normalizes: Bool

    public init(metadata: ParakeetMetadata) {
        var options = KaldiFbank.Options()
        options.sampleRate = Self.sampleRate
        options.melCount = metadata.featureCount
        options.window = .povey
        options.lowFrequency = 0
        options.highFrequency = -400
        options.removeDCOffset = false
        options.snipEdges = false
        options.librosaMel = true
        options.logGuard = 0x1p-24
        fbank = KaldiFbank(options: options)
        normalizes = metadata.normalizeType == "per_feature"
    }

    /// Mono 16 kHz samples of any buffer, resampled as sherpa-onnx resamples (Kaldi's LinearResample).
    public static func samples(_ audio: AudioBuffer) throws -> [Float] {
        let mono = try RecognitionAudio.monoSamples(audio, sampleRate: audio.sampleRate)
        guard audio.sampleRate != sampleRate else { return mono }
        return KaldiLinearResampler(from: audio.sampleRate, to: sampleRate)(mono)
    }

    /// `[frames, mels]` features of 16 kHz samples ((n + 80) / 160 frames; none under 5 ms of audio).
    public func callAsFunction(_ samples: [Float]) -> FeatureMatrix {
        let features = fbank(samples)
        return normalizes ? Self.normalizedPerFeature(features) : features
    }

    /// Each column to mean 0 and standard deviation 1: (x − mean) / (√max(E[x²] − mean², 0) + 1e-5), as sherpa-onnx's
    /// NemoNormalizePerFeature (sums in double here; sherpa-onnx's are float).
    static func normalizedPerFeature(_ features: FeatureMatrix) -> FeatureMatrix {
        let rows = features.rows, columns = features.columns
        guard rows > 0 else { return features }
        var sum = [Double](repeating: 0, count: columns), squares = [Double](repeating: 0, count: columns)
        features.values.withUnsafeBufferPointer { x in
            for r in 0..<rows {
                for c in 0..<columns {
                    let v = Double(x[r * columns + c])
                    sum[c] += v
                    squares[c] += v * v
                }
            }
        }
        var mean = [Float](repeating: 0, count: columns), scale = [Float](repeating: 0, count: columns)
        for c in 0..<columns {
            let m = sum[c] / Double(rows)
            let variance = max(squares[c] / Double(rows) - m * m, 0)
            mean[c] = Float(m)
            scale[c] = Float(1 / (variance.squareRoot() + 1e-5))
        }
        var values = features.values
        values.withUnsafeMutableBufferPointer { x in
            for r in 0..<rows {
                for c in 0..<columns { x[r * columns + c] = (x[r * columns + c] - mean[c]) * scale[c] }
            }
        }
        return FeatureMatrix(rows: rows, columns: columns, values: values)
    }
}
