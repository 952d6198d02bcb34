import Foundation
import CKissFFT
import Testing
@testable import WarbleAudio
import WarbleTestSupport

@Suite struct STFTTests {
    @Test(.needs(fixtures: "audio")) func centredReflectMatchesLibrosa() throws {
        let x = try Fixtures.array("input_16k").values
        let spec = STFT(fftLength: 400, hopLength: 160, window: .hann, center: true)(x)
        let re = try Fixtures.matrix("stft_400_160_center_real"), im = try Fixtures.matrix("stft_400_160_center_imag")
        #expect(spec.frames == re.rows && spec.bins == re.columns)
        // Tolerance: 1e-5 relative to the largest bin magnitude (float32 FFTs of different libraries).
        #expect(maxRelDiff(spec.real, reference: re.values) < 1e-5)
        #expect(maxRelDiff(spec.imaginary, reference: im.values) < 1e-5)
    }

    @Test(.needs(fixtures: "audio")) func shortWindowInLongerFFTWithoutCentring() throws {
        let x = try Fixtures.array("input_16k").values
        let stft = STFT(fftLength: 512, hopLength: 160, windowLength: 400, window: .hamming, center: false)
        let spec = stft(x)
        let re = try Fixtures.matrix("stft_512_160_hamming400_real"), im = try Fixtures.matrix("stft_512_160_hamming400_imag")
        #expect(spec.frames == re.rows)
        #expect(maxRelDiff(spec.real, reference: re.values) < 1e-5)  // tolerance: 1e-5 of the peak
        #expect(maxRelDiff(spec.imaginary, reference: im.values) < 1e-5)
    }

    @Test(.needs(fixtures: "audio")) func inverseMatchesLibrosaIstft() throws {
        let re = try Fixtures.matrix("istft_16_4_real"), im = try Fixtures.matrix("istft_16_4_imag")
        let expected = try Fixtures.array("istft_16_4_output").values
        let stft = STFT(fftLength: 16, hopLength: 4, window: .hann, center: true)
        let y = stft.inverse(Spectrogram(frames: re.rows, bins: re.columns, real: re.values, imaginary: im.values),
                             length: expected.count)
        #expect(y.count == expected.count)
        #expect(maxAbsDiff(y, expected) < 1e-5)  // tolerance: 1e-5 absolute (values up to ~2)
    }

    @Test(arguments: [(16, 4), (400, 160), (1920, 480), (15, 5)])
    func roundTripReconstructs(fft: Int, hop: Int) throws {
        let x: [Float] = (0..<4000).map { (i: Int) -> Float in
            let t = Double(i)
            return Float(sin(t * 0.05) * 0.5 + sin(t * 0.31) * 0.2)
        }
        let stft = STFT(fftLength: fft, hopLength: hop, window: .hann, center: true)
        let y = stft.inverse(stft(x), length: x.count)
        #expect(maxAbsDiff(y, x) < 1e-5)  // tolerance: 1e-5 absolute
    }

    @Test func realFFTInvertsAndOddSizesWork() {
        for n in [8, 9, 400, 401] {
            let x = (0..<n).map { Float(($0 * 7919) % 13) - 6 }
            let fft = RealFFT(size: n)
            let (re, im) = fft.forward(x)
            #expect(re.count == n / 2 + 1)
            #expect(abs(re[0] - x.reduce(0, +)) < 1e-3)
            #expect(maxAbsDiff(fft.inverse(real: re, imaginary: im), x) < 1e-4)
        }
    }

    @Test(arguments: [2, 6, 16, 22, 400, 512, 1920, 27])
    func realFFTMatchesDirectDFT(size: Int) {
        let x = (0..<size).map { Float(sin(Double($0 * $0) * 0.37)) }
        let (re, im) = RealFFT(size: size).forward(x)
        var worst = 0.0
        for k in 0...(size / 2) {
            var sr = 0.0, si = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n) / Double(size)
                sr += Double(x[n]) * cos(angle)
                si += Double(x[n]) * sin(angle)
            }
            worst = max(worst, abs(Double(re[k]) - sr), abs(Double(im[k]) - si))
        }
        #expect(worst < 1e-4 * Double(size).squareRoot())  // tolerance: float32 rounding, grows ~√n
    }

    @Test(arguments: [4, 6, 10, 16, 30, 400, 512, 1920])
    func batchedFFTMatchesKissFFTPerLane(size: Int) throws {
        let batched = try #require(BatchedRealFFT(size: size))
        let single = RealFFT(size: size)
        let bins = size / 2 + 1
        let expected = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: bins)
        let got = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: bins)
        defer { expected.deallocate(); got.deallocate() }
        let frames: [[Float]] = (0..<BatchedRealFFT.lanes).map { (lane: Int) -> [Float] in
            (0..<size).map { (n: Int) -> Float in
                let phase = Double(n * (lane + 3)) * 0.21
                return Float(sin(phase) + Double(lane) * 0.1)
            }
        }
        for round in 0..<2 {  // twice: the input memory is reused as scratch between transforms
            for (lane, frame) in frames.enumerated() {
                frame.withUnsafeBufferPointer { batched.setFrame($0.baseAddress!, lane: (lane + round) % 8) }
            }
            batched.transform()
            for (lane, frame) in frames.enumerated() {
                frame.withUnsafeBufferPointer { single.forward($0.baseAddress!, expected) }
                batched.spectrum(lane: (lane + round) % 8, into: got)
                var worst: Float = 0
                for k in 0..<bins { worst = max(worst, abs(got[k].r - expected[k].r), abs(got[k].i - expected[k].i)) }
                #expect(worst < 1e-4 * Float(size).squareRoot())  // tolerance: float32 rounding, ~√n
            }
        }
        #expect(BatchedRealFFT(size: 22) == nil)  // 11 is not a supported factor: kissfft is used
    }

    @Test func windows() {
        let hann = WindowFunction.hann.coefficients(length: 4)
        #expect(maxAbsDiff(hann, [0, 0.5, 1, 0.5]) < 1e-7)
        let symmetric = WindowFunction.hann(periodic: false).coefficients(length: 5)
        #expect(maxAbsDiff(symmetric, [0, 0.5, 1, 0.5, 0]) < 1e-7)
        let hamming = WindowFunction.hamming.coefficients(length: 4)
        #expect(maxAbsDiff(hamming, [0.08, 0.54, 1, 0.54]) < 1e-6)
        let povey = WindowFunction.povey.coefficients(length: 3)
        #expect(maxAbsDiff(povey, [0, 1, 0]) < 1e-7)
    }

    @Test func reflectPaddingMatchesNumpy() {
        // numpy.pad([1, 2, 3], 5, mode="reflect") = [2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2]
        let padded = SignalPadding.pad([1, 2, 3], left: 5, right: 5, mode: .reflect)
        #expect(padded == [2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2])
        #expect(SignalPadding.pad([1, 2], left: 1, right: 2, mode: .zeros) == [0, 1, 2, 0, 0])
    }
}
