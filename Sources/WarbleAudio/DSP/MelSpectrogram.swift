import Foundation

/// A configurable mel spectrogram: STFT → |X|² or |X| → mel filters → optional log.
/// `Sendable`: the window and filters are computed once in `init`; each call makes its own FFT plan.
public struct MelSpectrogram: Sendable {
    public enum Spectrum: Sendable, Equatable {
        /// |X|²
        case power
        /// sqrt(|X|² + epsilon) (Matcha/CosyVoice use epsilon 1e-9; 0 gives |X|).
        case magnitude(epsilon: Float)
    }

    public enum Compression: Sendable, Equatable {
        case none
        /// ln(max(x, floor))
        case naturalLog(floor: Float)
        /// log10(max(x, floor))
        case log10(floor: Float)
    }

    public let sampleRate: Int
    public let stft: STFT
    public let filterbank: MelFilterbank
    public let spectrum: Spectrum
    public let compression: Compression

    public init(sampleRate: Int, stft: STFT, filterbank: MelFilterbank, spectrum: Spectrum = .power, compression: Compression = .none) {
        precondition(filterbank.binCount == stft.binCount, "MelSpectrogram: filterbank and STFT bin counts differ")
        self.sampleRate = sampleRate
        self.stft = stft
        self.filterbank = filterbank
        self.spectrum = spectrum
        self.compression = compression
    }

    /// The CosyVoice / Matcha-TTS prompt mel at 24 kHz: n_fft 1920, hop 480, window 1920 (periodic
    /// Hann), 80 Slaney mels from 0 Hz to `maxFrequency`, reflect pad 720 each side with center off,
    /// sqrt(|X|² + 1e-9), ln(max(x, 1e-5)). 50 frames per second.
    public static func matcha(
        sampleRate: Int = 24000, fftLength: Int = 1920, hopLength: Int = 480, melCount: Int = 80,
        minFrequency: Double = 0, maxFrequency: Double? = nil
    ) -> MelSpectrogram {
        let pad = (fftLength - hopLength) / 2
        return MelSpectrogram(
            sampleRate: sampleRate,
            stft: STFT(fftLength: fftLength, hopLength: hopLength, window: .hann, padding: (pad, pad), paddingMode: .reflect),
            filterbank: MelFilterbank(
                sampleRate: sampleRate, fftLength: fftLength, melCount: melCount,
                minFrequency: minFrequency, maxFrequency: maxFrequency),
            spectrum: .magnitude(epsilon: 1e-9), compression: .naturalLog(floor: 1e-5))
    }

    /// `[frames, melCount]`.
    public func callAsFunction(_ samples: [Float]) -> FeatureMatrix {
        let frames = stft.frameCount(sampleCount: samples.count)
        let bins = stft.binCount
        let mels = filterbank.melCount
        var out = FeatureMatrix(rows: frames, columns: mels)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: bins)
        defer { row.deallocate() }
        out.values.withUnsafeMutableBufferPointer { dst in
            stft.forEachFrame(samples) { frame, bins_ in
                SpectrumMath.power(bins_, count: bins, into: row)
                if case .magnitude(let epsilon) = spectrum {
                    for k in 0..<bins { row[k] = (row[k] + epsilon).squareRoot() }
                }
                filterbank.apply(row, into: dst.baseAddress! + frame * mels)
            }
        }
        switch compression {
        case .none: break
        case .naturalLog(let floor): out.values.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = logf(max($0[i], floor)) } }
        case .log10(let floor): out.values.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = log10f(max($0[i], floor)) } }
        }
        return out
    }
}
