import CKissFFT

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plan for real-input FFTs of one size (kissfft), forward and inverse, unnormalised like
/// `numpy.fft.rfft` / `irfft·n`. Even sizes use kissfft's real transform; odd sizes its complex one.
///
/// Not `Sendable`: a plan owns scratch memory that every transform writes. Make one per task (plans
/// are cheap: microseconds) and reuse it for every frame; the feature extractors do that per call.
public final class RealFFT {
    public let size: Int
    /// `size / 2 + 1`, the number of non-negative frequency bins.
    public var binCount: Int { size / 2 + 1 }

    private let forwardReal: kiss_fftr_cfg?
    private let inverseReal: kiss_fftr_cfg?
    private let forwardComplex: kiss_fft_cfg?
    private let inverseComplex: kiss_fft_cfg?
    /// Scratch: complex input/output for odd sizes.
    private let scratchIn: UnsafeMutablePointer<kiss_fft_cpx>
    private let scratchOut: UnsafeMutablePointer<kiss_fft_cpx>

    public init(size: Int) {
        precondition(size >= 2 && size <= 1 << 24, "RealFFT: size must be in 2...16777216, got \(size)")
        self.size = size
        if size % 2 == 0 {
            forwardReal = kiss_fftr_alloc(Int32(size), 0, nil, nil)
            inverseReal = kiss_fftr_alloc(Int32(size), 1, nil, nil)
            forwardComplex = nil
            inverseComplex = nil
        } else {
            forwardReal = nil
            inverseReal = nil
            forwardComplex = kiss_fft_alloc(Int32(size), 0, nil, nil)
            inverseComplex = kiss_fft_alloc(Int32(size), 1, nil, nil)
        }
        scratchIn = .allocate(capacity: size)
        scratchOut = .allocate(capacity: size)
    }

    deinit {
        free(forwardReal.map(UnsafeMutableRawPointer.init))
        free(inverseReal.map(UnsafeMutableRawPointer.init))
        free(forwardComplex.map(UnsafeMutableRawPointer.init))
        free(inverseComplex.map(UnsafeMutableRawPointer.init))
        scratchIn.deallocate()
        scratchOut.deallocate()
    }

    /// `size` real samples → `binCount` complex bins (kissfft's interleaved re/im pairs).
    func forward(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<kiss_fft_cpx>) {
        if let forwardReal {
            kiss_fftr(forwardReal, input, output)
        } else {
            for i in 0..<size { scratchIn[i] = kiss_fft_cpx(r: input[i], i: 0) }
            kiss_fft(forwardComplex, scratchIn, scratchOut)
            output.update(from: scratchOut, count: binCount)
        }
    }

    /// `binCount` complex bins → `size` real samples, scaled by `size` (divide to invert `forward`).
    /// The imaginary parts of the DC and (for even sizes) Nyquist bins are ignored, as in `irfft`.
    func inverse(_ input: UnsafePointer<kiss_fft_cpx>, _ output: UnsafeMutablePointer<Float>) {
        if let inverseReal {
            kiss_fftri(inverseReal, input, output)
        } else {
            let bins = binCount
            scratchIn[0] = kiss_fft_cpx(r: input[0].r, i: 0)
            for k in 1..<bins {
                scratchIn[k] = input[k]
                scratchIn[size - k] = kiss_fft_cpx(r: input[k].r, i: -input[k].i)
            }
            kiss_fft(inverseComplex, scratchIn, scratchOut)
            for i in 0..<size { output[i] = scratchOut[i].r }
        }
    }

    /// The spectrum of `input` (exactly `size` samples): `binCount` real and imaginary parts.
    public func forward(_ input: [Float]) -> (real: [Float], imaginary: [Float]) {
        precondition(input.count == size, "RealFFT.forward: expected \(size) samples, got \(input.count)")
        let bins = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: binCount)
        defer { bins.deallocate() }
        input.withUnsafeBufferPointer { forward($0.baseAddress!, bins) }
        return ((0..<binCount).map { bins[$0].r }, (0..<binCount).map { bins[$0].i })
    }

    /// The real signal whose spectrum is given (`binCount` bins), normalised so that
    /// `inverse(forward(x)) == x` up to rounding.
    public func inverse(real: [Float], imaginary: [Float]) -> [Float] {
        precondition(real.count == binCount && imaginary.count == binCount, "RealFFT.inverse: expected \(binCount) bins")
        let bins = UnsafeMutablePointer<kiss_fft_cpx>.allocate(capacity: binCount)
        defer { bins.deallocate() }
        for k in 0..<binCount { bins[k] = kiss_fft_cpx(r: real[k], i: imaginary[k]) }
        var out = [Float](repeating: 0, count: size)
        out.withUnsafeMutableBufferPointer { inverse(bins, $0.baseAddress!) }
        let scale = 1 / Float(size)
        for i in out.indices { out[i] *= scale }
        return out
    }
}
