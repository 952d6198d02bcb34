import CKissFFT
import Foundation

/// Kaldi filterbank features as `kaldi-native-fbank` and `torchaudio.compliance.kaldi.fbank` compute
/// them with their defaults (dither 0): 25 ms frames every 10 ms with `snip_edges` (no padding;
/// frames = 1 + (n − length) / shift), DC offset removal, pre-emphasis 0.97, povey window, FFT
/// rounded up to a power of two (512 at 16 kHz), power spectrum, triangular filters on Kaldi's mel
/// scale from 20 Hz to Nyquist, ln(max(energy, FLT_EPSILON)).
/// kaldi-native-fbank's other settings that NeMo models use: `snipEdges` false (frames centred on
/// every shift, (n + shift/2) / shift of them, the signal mirrored past its ends), `librosaMel`
/// (librosa's Slaney-scale, Slaney-normalised filters, its `is_librosa`), and `logGuard`
/// (ln(energy + guard) instead of the floor, its `use_log_floor` false with `eps`).
/// Samples are used as given: Kaldi recipes that expect 16-bit magnitudes scale by 32768 first
/// (`inputScale`); CosyVoice's speaker embedder feeds [-1, 1] floats.
public struct KaldiFbank: Sendable {
    public struct Options: Sendable, Equatable {
        public var sampleRate: Int = 16000
        public var frameLengthMilliseconds: Double = 25
        public var frameShiftMilliseconds: Double = 10
        public var melCount: Int = 80
        public var lowFrequency: Double = 20
        /// Upper filter edge in Hz; ≤ 0 means Nyquist + this value (Kaldi's convention).
        public var highFrequency: Double = 0
        public var preemphasis: Float = 0.97
        public var removeDCOffset = true
        public var window: WindowFunction = .povey
        public var roundToPowerOfTwo = true
        /// Power (true) or magnitude spectrum.
        public var usePower = true
        /// Multiplies the samples first (32768 for Kaldi models trained on 16-bit magnitudes).
        public var inputScale: Float = 1
        /// Subtract each bin's mean over time (CosyVoice's CAM++ input).
        public var subtractMean = false
        /// Frames start at 0 and end inside the signal (true), or are centred on every shift with the
        /// signal mirrored past its ends (false).
        public var snipEdges = true
        /// librosa's filters (Slaney mel scale, each triangle Slaney-normalised) instead of Kaldi's.
        public var librosaMel = false
        /// ln(energy + guard) when set; else ln(max(energy, FLT_EPSILON)).
        public var logGuard: Float?

        public init() {}
    }

    public let options: Options
    public let frameLength: Int
    public let frameShift: Int
    public let fftLength: Int
    private let window: [Float]
    private let filterbank: MelFilterbank

    public init(options: Options = Options()) {
        self.options = options
        frameLength = Int(Double(options.sampleRate) * options.frameLengthMilliseconds / 1000)
        frameShift = Int(Double(options.sampleRate) * options.frameShiftMilliseconds / 1000)
        precondition(frameLength >= 2 && frameShift >= 1, "KaldiFbank: frame length and shift too short")
        var n = frameLength
        if options.roundToPowerOfTwo { n = 1; while n < frameLength { n <<= 1 } }
        fftLength = n
        window = options.window.coefficients(length: frameLength)
        filterbank = Self.melBanks(options: options, fftLength: n)
    }

    /// Kaldi's bins: triangles in (Kaldi) mel, evaluated at each FFT bin's frequency; the Nyquist bin
    /// gets no weight.
    static func melBanks(options: Options, fftLength: Int) -> MelFilterbank {
        let nyquist = Double(options.sampleRate) / 2
        let high = options.highFrequency > 0 ? options.highFrequency : nyquist + options.highFrequency
        if options.librosaMel {
            return MelFilterbank(sampleRate: options.sampleRate, fftLength: fftLength, melCount: options.melCount,
                                 minFrequency: options.lowFrequency, maxFrequency: high, scale: .slaney, normalization: .slaney)
        }
        let scale = MelScale.kaldi
        let lowMel = scale.mel(fromHz: options.lowFrequency), highMel = scale.mel(fromHz: high)
        let delta = (highMel - lowMel) / Double(options.melCount + 1)
        let bins = fftLength / 2 + 1
        let binWidth = Double(options.sampleRate) / Double(fftLength)
        var dense = [[Float]]()
        for m in 0..<options.melCount {
            let left = lowMel + Double(m) * delta, center = left + delta, right = center + delta
            var row = [Float](repeating: 0, count: bins)
            for i in 0..<(fftLength / 2) {
                let mel = scale.mel(fromHz: binWidth * Double(i))
                if mel > left && mel < right {
                    row[i] = Float(mel <= center ? (mel - left) / (center - left) : (right - mel) / (right - center))
                }
            }
            dense.append(row)
        }
        return MelFilterbank(dense: dense, binCount: bins)
    }

    /// Frames for `sampleCount` samples.
    public func frameCount(sampleCount: Int) -> Int {
        guard options.snipEdges else { return (sampleCount + frameShift / 2) / frameShift }
        return sampleCount < frameLength ? 0 : 1 + (sampleCount - frameLength) / frameShift
    }

    /// The samples the frames are cut from: the signal itself with `snipEdges`, else the signal mirrored
    /// past both ends (Kaldi's reflection: sample −1 is sample 0) so that frame f starts at f · shift.
    func framedSignal(_ samples: [Float], frames: Int) -> [Float] {
        guard !options.snipEdges, frames > 0 else { return samples }
        let first = frameShift / 2 - frameLength / 2
        let count = (frames - 1) * frameShift + frameLength
        let n = samples.count
        return (0..<count).map { i in
            var s = i + first
            while s < 0 || s >= n { s = s < 0 ? -s - 1 : 2 * n - 1 - s }
            return samples[s]
        }
    }

    /// `[frames, melCount]` log filterbank energies.
    public func callAsFunction(_ samples: [Float]) -> FeatureMatrix {
        let frames = frameCount(sampleCount: samples.count)
        let samples = framedSignal(samples, frames: frames)
        let mels = options.melCount
        let bins = fftLength / 2 + 1
        var out = FeatureMatrix(rows: frames, columns: mels)
        guard frames > 0 else { return out }
        let frame = UnsafeMutablePointer<Float>.allocate(capacity: fftLength)
        frame.initialize(repeating: 0, count: fftLength)
        let spectrum = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: bins)
        let power = UnsafeMutablePointer<Float>.allocate(capacity: bins)
        defer { frame.deallocate(); spectrum.deallocate(); power.deallocate() }
        let scale = options.inputScale, preemphasis = options.preemphasis, length = frameLength
        let removeDC = options.removeDCOffset, usePower = options.usePower
        let epsilon = Float.ulpOfOne, guardValue = options.logGuard
        samples.withUnsafeBufferPointer { signal in
            window.withUnsafeBufferPointer { w in
                out.values.withUnsafeMutableBufferPointer { dst in
                    /// Frame `f` after DC removal, pre-emphasis and windowing, zero-padded to fftLength.
                    func prepare(_ f: Int) {
                        let start = f * frameShift
                        for i in 0..<length { frame[i] = signal[start + i] * scale }
                        if removeDC {
                            var sum: Float = 0
                            for i in 0..<length { sum += frame[i] }
                            let mean = sum / Float(length)
                            for i in 0..<length { frame[i] -= mean }
                        }
                        if preemphasis != 0 {
                            for i in stride(from: length - 1, to: 0, by: -1) { frame[i] -= preemphasis * frame[i - 1] }
                            frame[0] -= preemphasis * frame[0]
                        }
                        for i in 0..<length { frame[i] *= w[i] }
                    }
                    /// Power (or magnitude) spectrum → mel energies → log, into output row `f`.
                    func finish(_ f: Int) {
                        SpectrumMath.power(spectrum, count: bins, into: power)
                        if !usePower { for k in 0..<bins { power[k] = power[k].squareRoot() } }
                        let row = dst.baseAddress! + f * mels
                        filterbank.apply(power, into: row)
                        if let guardValue {
                            for m in 0..<mels { row[m] = logf(row[m] + guardValue) }
                        } else {
                            for m in 0..<mels { row[m] = logf(max(row[m], epsilon)) }
                        }
                    }
                    var f = 0
                    if frames >= BatchedRealFFT.lanes, let batched = BatchedRealFFT(size: fftLength) {
                        while f + BatchedRealFFT.lanes <= frames {
                            for lane in 0..<BatchedRealFFT.lanes {
                                prepare(f + lane)
                                batched.setFrame(frame, lane: lane)
                            }
                            batched.transform()
                            for lane in 0..<BatchedRealFFT.lanes {
                                batched.spectrum(lane: lane, into: spectrum)
                                finish(f + lane)
                            }
                            f += BatchedRealFFT.lanes
                        }
                    }
                    if f < frames {
                        let fft = RealFFT(size: fftLength)
                        for g in f..<frames {
                            prepare(g)
                            fft.forward(frame, spectrum)
                            finish(g)
                        }
                    }
                }
            }
        }
        if options.subtractMean { out.subtractColumnMeans() }
        return out
    }
}

extension FeatureMatrix {
    /// Subtracts each column's mean over the rows (per-bin mean normalisation over time).
    public mutating func subtractColumnMeans() {
        guard rows > 0 else { return }
        var means = [Double](repeating: 0, count: columns)
        for r in 0..<rows { for c in 0..<columns { means[c] += Double(self[r, c]) } }
        for c in 0..<columns { means[c] /= Double(rows) }
        for r in 0..<rows { for c in 0..<columns { self[r, c] -= Float(means[c]) } }
    }
}
