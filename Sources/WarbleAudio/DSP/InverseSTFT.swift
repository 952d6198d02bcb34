import CKissFFT

extension STFT {
    /// The signal whose STFT is `spectrogram`, with `torch.istft` semantics: inverse FFT of each frame,
    /// windowed overlap-add, division by the summed squared window (where it exceeds 1e-11), and removal
    /// of the padding. `length` trims or zero-pads the result (torch's `length`).
    public func inverse(_ spectrogram: Spectrogram, length: Int? = nil) -> [Float] {
        precondition(spectrogram.bins == binCount, "STFT.inverse: expected \(binCount) bins, got \(spectrogram.bins)")
        let frames = spectrogram.frames
        let total = frames == 0 ? 0 : fftLength + hopLength * (frames - 1)
        var signal = [Float](repeating: 0, count: total)
        var envelope = [Float](repeating: 0, count: total)
        let fft = RealFFT(size: fftLength)
        let window = paddedWindow()
        let bins = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: binCount)
        let frame = UnsafeMutablePointer<Float>.allocate(capacity: fftLength)
        defer { bins.deallocate(); frame.deallocate() }
        let scale = 1 / Float(fftLength)
        signal.withUnsafeMutableBufferPointer { out in
            envelope.withUnsafeMutableBufferPointer { env in
                for f in 0..<frames {
                    for k in 0..<binCount {
                        bins[k] = kiss_fft_cpx(r: spectrogram.real[f * binCount + k], i: spectrogram.imaginary[f * binCount + k])
                    }
                    fft.inverse(bins, frame)
                    let start = f * hopLength
                    for i in 0..<fftLength {
                        out[start + i] += frame[i] * scale * window[i]
                        env[start + i] += window[i] * window[i]
                    }
                }
            }
        }
        for i in 0..<total where envelope[i] > 1e-11 { signal[i] /= envelope[i] }
        let start = min(padding.left, total)
        let end = length.map { start + $0 } ?? max(start, total - padding.right)
        var result = Array(signal[start..<min(end, total)])
        if end > total { result += [Float](repeating: 0, count: end - total) }
        return result
    }
}
