import Foundation
import CKissFFT

/// How the signal is extended before framing.
public enum PaddingMode: Sendable, Equatable {
    /// Mirror without repeating the edge sample (numpy/torch "reflect"); repeats for long pads.
    case reflect
    /// Zeros.
    case zeros
}

/// Short-time Fourier transform with `torch.stft` semantics (onesided, unnormalised): frames of
/// `fftLength` samples every `hopLength`, the `windowLength` window centred in the frame.
/// Frames are transformed eight at a time with `BatchedRealFFT` (SIMD across frames) when the size
/// allows, the rest with kissfft through `RealFFT`.
public struct STFT: Sendable, Equatable {
    public var fftLength: Int
    public var hopLength: Int
    public var windowLength: Int
    public var window: WindowFunction
    /// Samples added before the first and after the last sample. `center` = fftLength / 2 each side.
    public var padding: (left: Int, right: Int)
    public var paddingMode: PaddingMode

    /// - Parameters:
    ///   - center: pad fftLength / 2 on each side, like `torch.stft(center=True)`; ignored when
    ///     `padding` is given.
    ///   - padding: explicit padding (e.g. CosyVoice's reflect pad (n_fft − hop) / 2 with center off).
    public init(
        fftLength: Int, hopLength: Int, windowLength: Int? = nil, window: WindowFunction = .hann,
        center: Bool = true, padding: (left: Int, right: Int)? = nil, paddingMode: PaddingMode = .reflect
    ) {
        precondition(fftLength >= 2 && hopLength >= 1, "STFT: fftLength ≥ 2 and hopLength ≥ 1 required")
        let windowLength = windowLength ?? fftLength
        precondition((1...fftLength).contains(windowLength), "STFT: windowLength must be in 1...fftLength")
        self.fftLength = fftLength
        self.hopLength = hopLength
        self.windowLength = windowLength
        self.window = window
        self.padding = padding ?? (center ? (fftLength / 2, fftLength / 2) : (0, 0))
        self.paddingMode = paddingMode
    }

    public static func == (a: STFT, b: STFT) -> Bool {
        a.fftLength == b.fftLength && a.hopLength == b.hopLength && a.windowLength == b.windowLength
            && a.window == b.window && a.padding == b.padding && a.paddingMode == b.paddingMode
    }

    public var binCount: Int { fftLength / 2 + 1 }

    /// Frames produced for `sampleCount` input samples.
    public func frameCount(sampleCount: Int) -> Int {
        let padded = sampleCount + padding.left + padding.right
        return padded < fftLength ? 0 : 1 + (padded - fftLength) / hopLength
    }

    /// The window zero-padded to `fftLength` (centred, like `torch.stft` with a shorter window).
    public func paddedWindow() -> [Float] {
        var full = [Float](repeating: 0, count: fftLength)
        let offset = (fftLength - windowLength) / 2
        for (i, w) in window.coefficients(length: windowLength).enumerated() { full[offset + i] = w }
        return full
    }

    /// The complex spectrogram, `[frames, binCount]`.
    public func callAsFunction(_ samples: [Float]) -> Spectrogram {
        let frames = frameCount(sampleCount: samples.count)
        let bins = binCount, count = frames * bins
        var imaginary = [Float]()
        let real = [Float](unsafeUninitializedCapacity: count) { re, reCount in
            imaginary = [Float](unsafeUninitializedCapacity: count) { im, imCount in
                forEachFrame(samples) { frame, spectrum in
                    let r = re.baseAddress! + frame * bins, m = im.baseAddress! + frame * bins
                    for k in 0..<bins {
                        r[k] = spectrum[k].r
                        m[k] = spectrum[k].i
                    }
                }
                imCount = count
            }
            reCount = count
        }
        return Spectrogram(frames: frames, bins: bins, real: real, imaginary: imaginary)
    }

    /// |X|^2 (`exponent` 2) or |X| (`exponent` 1) per frame and bin, `[frames, binCount]`, without
    /// materialising the complex spectrogram.
    public func powerSpectrogram(_ samples: [Float], exponent: Float = 2) -> FeatureMatrix {
        let frames = frameCount(sampleCount: samples.count)
        let bins = binCount
        let out = [Float](unsafeUninitializedCapacity: frames * bins) { dst, initialized in
            initialized = frames * bins
            forEachFrame(samples) { frame, spectrum in
                let row = dst.baseAddress! + frame * bins
                SpectrumMath.power(spectrum, count: bins, into: row)
                if exponent == 1 {
                    for k in 0..<bins { row[k] = row[k].squareRoot() }
                } else if exponent != 2 {
                    for k in 0..<bins { row[k] = powf(row[k], exponent / 2) }
                }
            }
        }
        return FeatureMatrix(rows: frames, columns: bins, values: out)
    }

    /// Runs the framing, windowing and FFT, handing each frame's `binCount` bins to `body`.
    /// One FFT plan and one frame buffer serve all frames: no allocation per frame.
    func forEachFrame(_ samples: [Float], _ body: (Int, UnsafePointer<kiss_fft_cpx>) -> Void) {
        let frames = frameCount(sampleCount: samples.count)
        guard frames > 0 else { return }
        let window = paddedWindow()
        // Only the window's non-zero span needs multiplying; the rest of the frame stays zero.
        let first = (fftLength - windowLength) / 2
        let last = first + windowLength
        let frame = UnsafeMutablePointer<Float>.allocate(capacity: fftLength)
        frame.initialize(repeating: 0, count: fftLength)
        let spectrum = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: binCount)
        defer { frame.deallocate(); spectrum.deallocate() }
        let n = samples.count, left = padding.left, reflect = paddingMode == .reflect
        samples.withUnsafeBufferPointer { signal in
            window.withUnsafeBufferPointer { w in
                /// Frame `f`, windowed, into `frame`. Sample index of frame position i is start + i; the
                /// padding is never materialised: frames past either end read through the reflect/zero map.
                func fill(_ f: Int) {
                    let start = f * hopLength - left
                    if start + first >= 0 && start + last <= n {
                        let src = signal.baseAddress! + start
                        for i in first..<last { frame[i] = src[i] * w[i] }
                    } else {
                        for i in first..<last {
                            let j = start + i
                            let x: Float = (j >= 0 && j < n) ? signal[j]
                                : (reflect && n > 0 ? signal[SignalPadding.reflect(j, n)] : 0)
                            frame[i] = x * w[i]
                        }
                    }
                }
                var f = 0
                // Eight frames per batched transform (one per SIMD lane), then single frames.
                if frames >= BatchedRealFFT.lanes, let batched = BatchedRealFFT(size: fftLength) {
                    while f + BatchedRealFFT.lanes <= frames {
                        for lane in 0..<BatchedRealFFT.lanes {
                            fill(f + lane)
                            batched.setFrame(frame, lane: lane)
                        }
                        batched.transform()
                        for lane in 0..<BatchedRealFFT.lanes {
                            batched.spectrum(lane: lane, into: spectrum)
                            body(f + lane, spectrum)
                        }
                        f += BatchedRealFFT.lanes
                    }
                }
                guard f < frames else { return }
                let fft = RealFFT(size: fftLength)
                while f < frames {
                    fill(f)
                    fft.forward(frame, spectrum)
                    body(f, spectrum)
                    f += 1
                }
            }
        }
    }
}

/// A complex spectrogram, `[frames, bins]` row-major, real and imaginary parts apart.
public struct Spectrogram: Sendable, Equatable {
    public var frames: Int
    public var bins: Int
    public var real: [Float]
    public var imaginary: [Float]

    public init(frames: Int, bins: Int, real: [Float], imaginary: [Float]) {
        precondition(real.count == frames * bins && imaginary.count == frames * bins,
                     "Spectrogram: parts must hold frames × bins values")
        self.frames = frames
        self.bins = bins
        self.real = real
        self.imaginary = imaginary
    }

    /// From magnitude and phase (e.g. a vocoder's outputs), both `[frames, bins]`.
    public init(magnitude: FeatureMatrix, phase: FeatureMatrix) {
        precondition(magnitude.rows == phase.rows && magnitude.columns == phase.columns)
        var re = magnitude.values, im = magnitude.values
        for i in re.indices {
            let m = magnitude.values[i], p = phase.values[i]
            re[i] = m * cosf(p)
            im[i] = m * sinf(p)
        }
        self.init(frames: magnitude.rows, bins: magnitude.columns, real: re, imaginary: im)
    }

    public func power() -> FeatureMatrix {
        FeatureMatrix(rows: frames, columns: bins, values: zip(real, imaginary).map { $0 * $0 + $1 * $1 })
    }

    public func magnitude() -> FeatureMatrix {
        FeatureMatrix(rows: frames, columns: bins, values: zip(real, imaginary).map { ($0 * $0 + $1 * $1).squareRoot() })
    }
}

enum SpectrumMath {
    @inline(__always)
    static func power(_ spectrum: UnsafePointer<kiss_fft_cpx>, count: Int, into out: UnsafeMutablePointer<Float>) {
        for k in 0..<count { out[k] = spectrum[k].r * spectrum[k].r + spectrum[k].i * spectrum[k].i }
    }
}

enum SignalPadding {
    /// `samples` extended by `left` and `right` samples.
    static func pad(_ samples: [Float], left: Int, right: Int, mode: PaddingMode) -> [Float] {
        if left == 0 && right == 0 { return samples }
        let n = samples.count
        var out = [Float](repeating: 0, count: left + n + right)
        out.withUnsafeMutableBufferPointer { dst in
            samples.withUnsafeBufferPointer { src in
                for i in 0..<n { dst[left + i] = src[i] }
                guard mode == .reflect, n > 0 else { return }
                for i in 0..<left { dst[i] = src[reflect(i - left, n)] }
                for i in 0..<right { dst[left + n + i] = src[reflect(n + i, n)] }
            }
        }
        return out
    }

    /// Index `i` mirrored into 0..<n without repeating edges (period 2(n − 1)).
    @inline(__always)
    static func reflect(_ i: Int, _ n: Int) -> Int {
        if n == 1 { return 0 }
        let period = 2 * (n - 1)
        var j = i % period
        if j < 0 { j += period }
        return j < n ? j : period - j
    }
}
