import CKissFFT
import Foundation

/// Real FFTs of eight frames at once, one frame per SIMD lane: every butterfly then runs on full
/// vectors with no shuffles, whatever the stage. The half-length complex FFT (z[n] = x[2n] + i·x[2n+1])
/// uses Stockham auto-sort stages of radix 4, 2, 3 and 5, then the usual split into the real
/// spectrum. Only sizes whose half has no prime factor above 5 are supported (`init` returns nil
/// otherwise); `STFT` and `KaldiFbank` fall back to kissfft for the rest and for leftover frames.
///
/// Stockham stage from transform length L to L·p (r = m / L sequences before, r' = r / p after):
///   A'[f + L·u][s] = Σ_q ω_p^(q·u) · ω_(L·p)^(q·f) · A[f][s + r'·q],  f < L, u < p, s < r'
/// with A[f][s] (stored at f·r + s) the length-L DFT of z[s], z[s + r], z[s + 2r], ….
/// Not `Sendable`: it owns scratch buffers.
final class BatchedRealFFT {
    typealias V = SIMD8<Float>
    static let lanes = 8

    let size: Int
    let binCount: Int
    private let half: Int
    private let radices: [Int]
    private let lengths: [Int]
    /// Twiddles of every stage, flattened: stage i starts at `twiddleOffsets[i]`, entry f·(p−1) + q−1.
    private let twiddleRe: UnsafeMutablePointer<Float>
    private let twiddleIm: UnsafeMutablePointer<Float>
    private let twiddleOffsets: [Int]
    private let postRe: UnsafeMutablePointer<Float>
    private let postIm: UnsafeMutablePointer<Float>
    private let a: (re: UnsafeMutablePointer<V>, im: UnsafeMutablePointer<V>)
    private let b: (re: UnsafeMutablePointer<V>, im: UnsafeMutablePointer<V>)
    /// The spectrum of the last `transform()`: `binCount` vectors, lane j = frame j.
    let outRe: UnsafeMutablePointer<V>
    let outIm: UnsafeMutablePointer<V>

    init?(size: Int) {
        guard size >= 4, size % 2 == 0 else { return nil }
        let m = size / 2
        var rest = m, radices = [Int]()
        while rest % 4 == 0 { radices.append(4); rest /= 4 }
        for p in [2, 3, 5] { while rest % p == 0 { radices.append(p); rest /= p } }
        guard rest == 1 else { return nil }
        self.size = size
        self.binCount = m + 1
        self.half = m
        self.radices = radices
        var lengths = [Int](), offsets = [Int](), total = 0, length = 1
        for p in radices {
            lengths.append(length)
            offsets.append(total)
            total += length * (p - 1)
            length *= p
        }
        self.lengths = lengths
        twiddleOffsets = offsets
        twiddleRe = .allocate(capacity: max(total, 1))
        twiddleIm = .allocate(capacity: max(total, 1))
        for (i, p) in radices.enumerated() {
            let l = lengths[i]
            for f in 0..<l {
                for q in 1..<p {
                    let angle = -2 * Double.pi * Double(q * f) / Double(l * p)
                    twiddleRe[offsets[i] + f * (p - 1) + q - 1] = Float(cos(angle))
                    twiddleIm[offsets[i] + f * (p - 1) + q - 1] = Float(sin(angle))
                }
            }
        }
        postRe = .allocate(capacity: m + 1)
        postIm = .allocate(capacity: m + 1)
        for k in 0...m {
            postRe[k] = Float(cos(-2 * Double.pi * Double(k) / Double(size)))
            postIm[k] = Float(sin(-2 * Double.pi * Double(k) / Double(size)))
        }
        a = (.allocate(capacity: m), .allocate(capacity: m))
        b = (.allocate(capacity: m), .allocate(capacity: m))
        a.re.initialize(repeating: V(), count: m); a.im.initialize(repeating: V(), count: m)
        b.re.initialize(repeating: V(), count: m); b.im.initialize(repeating: V(), count: m)
        outRe = .allocate(capacity: m + 1)
        outIm = .allocate(capacity: m + 1)
        outRe.initialize(repeating: V(), count: m + 1); outIm.initialize(repeating: V(), count: m + 1)
    }

    deinit {
        twiddleRe.deallocate(); twiddleIm.deallocate(); postRe.deallocate(); postIm.deallocate()
        a.re.deallocate(); a.im.deallocate(); b.re.deallocate(); b.im.deallocate()
        outRe.deallocate(); outIm.deallocate()
    }

    /// Puts `size` samples into lane `lane` of the input. Every lane must be set before each
    /// `transform()`: the stages use the input memory as scratch.
    @inline(__always)
    func setFrame(_ samples: UnsafePointer<Float>, lane: Int) {
        let even = UnsafeMutableRawPointer(a.re).assumingMemoryBound(to: Float.self)
        let odd = UnsafeMutableRawPointer(a.im).assumingMemoryBound(to: Float.self)
        for n in 0..<half {
            even[n &* Self.lanes &+ lane] = samples[2 &* n]
            odd[n &* Self.lanes &+ lane] = samples[2 &* n &+ 1]
        }
    }

    /// Copies lane `lane` of the last spectrum out as `binCount` complex bins.
    @inline(__always)
    func spectrum(lane: Int, into out: UnsafeMutablePointer<kiss_fft_cpx>) {
        let re = UnsafeRawPointer(outRe).assumingMemoryBound(to: Float.self)
        let im = UnsafeRawPointer(outIm).assumingMemoryBound(to: Float.self)
        for k in 0..<binCount {
            out[k] = kiss_fft_cpx(r: re[k &* Self.lanes &+ lane], i: im[k &* Self.lanes &+ lane])
        }
    }

    /// Transforms the eight frames set in the input; results in `outRe` / `outIm`.
    func transform() {
        var src = a, dst = b
        for (i, p) in radices.enumerated() {
            stage(p, lengths[i], twiddleOffsets[i], src, dst)
            swap(&src, &dst)
        }
        let zr = src.re, zi = src.im, m = half
        // X[k] = E + W^k·O, E = (Z[k] + conj Z[m−k]) / 2, O = (Z[k] − conj Z[m−k]) / 2i.
        for k in 0...m {
            let i0 = k == m ? 0 : k, i1 = k == 0 ? 0 : m - k
            let er = (zr[i0] + zr[i1]) * 0.5, ei = (zi[i0] - zi[i1]) * 0.5
            let or = (zi[i0] + zi[i1]) * 0.5, oi = (zr[i1] - zr[i0]) * 0.5
            let wr = postRe[k], wi = postIm[k]
            outRe[k] = er + or * wr - oi * wi
            outIm[k] = ei + oi * wr + or * wi
        }
    }

    private func stage(
        _ p: Int, _ l: Int, _ offset: Int,
        _ x: (re: UnsafeMutablePointer<V>, im: UnsafeMutablePointer<V>),
        _ y: (re: UnsafeMutablePointer<V>, im: UnsafeMutablePointer<V>)
    ) {
        let r = half / l, rp = r / p, stride = l * rp
        for f in 0..<l {
            let xr = x.re + f * r, xi = x.im + f * r, yr = y.re + f * rp, yi = y.im + f * rp
            let tr = twiddleRe + offset + f * (p - 1), ti = twiddleIm + offset + f * (p - 1)
            switch p {
            case 4: Self.radix4(xr, xi, yr, yi, rp, stride, tr, ti)
            case 2: Self.radix2(xr, xi, yr, yi, rp, stride, tr, ti)
            case 3: Self.radix3(xr, xi, yr, yi, rp, stride, tr, ti)
            default: Self.radix5(xr, xi, yr, yi, rp, stride, tr, ti)
            }
        }
    }

    @inline(__always)
    private static func twiddle(_ re: V, _ im: V, _ wr: Float, _ wi: Float) -> (V, V) {
        (re * wr - im * wi, re * wi + im * wr)
    }

    @inline(__always)
    private static func radix2(
        _ xr: UnsafeMutablePointer<V>, _ xi: UnsafeMutablePointer<V>, _ yr: UnsafeMutablePointer<V>,
        _ yi: UnsafeMutablePointer<V>, _ n: Int, _ stride: Int, _ tr: UnsafeMutablePointer<Float>,
        _ ti: UnsafeMutablePointer<Float>
    ) {
        let w1r = tr[0], w1i = ti[0]
        for s in 0..<n {
            let (a1r, a1i) = twiddle(xr[s + n], xi[s + n], w1r, w1i)
            let a0r = xr[s], a0i = xi[s]
            yr[s] = a0r + a1r; yi[s] = a0i + a1i
            yr[s + stride] = a0r - a1r; yi[s + stride] = a0i - a1i
        }
    }

    @inline(__always)
    private static func radix3(
        _ xr: UnsafeMutablePointer<V>, _ xi: UnsafeMutablePointer<V>, _ yr: UnsafeMutablePointer<V>,
        _ yi: UnsafeMutablePointer<V>, _ n: Int, _ stride: Int, _ tr: UnsafeMutablePointer<Float>,
        _ ti: UnsafeMutablePointer<Float>
    ) {
        let c: Float = -0.5, d: Float = -0.866_025_403_784_438_6  // ω_3 = c + i·d
        let w1r = tr[0], w1i = ti[0], w2r = tr[1], w2i = ti[1]
        for s in 0..<n {
            let a0r = xr[s], a0i = xi[s]
            let (a1r, a1i) = twiddle(xr[s + n], xi[s + n], w1r, w1i)
            let (a2r, a2i) = twiddle(xr[s + 2 * n], xi[s + 2 * n], w2r, w2i)
            let sr = a1r + a2r, si = a1i + a2i, dr = a1r - a2r, di = a1i - a2i
            let mr = a0r + sr * c, mi = a0i + si * c
            yr[s] = a0r + sr; yi[s] = a0i + si
            yr[s + stride] = mr - di * d; yi[s + stride] = mi + dr * d
            yr[s + 2 * stride] = mr + di * d; yi[s + 2 * stride] = mi - dr * d
        }
    }

    @inline(__always)
    private static func radix4(
        _ xr: UnsafeMutablePointer<V>, _ xi: UnsafeMutablePointer<V>, _ yr: UnsafeMutablePointer<V>,
        _ yi: UnsafeMutablePointer<V>, _ n: Int, _ stride: Int, _ tr: UnsafeMutablePointer<Float>,
        _ ti: UnsafeMutablePointer<Float>
    ) {
        let w1r = tr[0], w1i = ti[0], w2r = tr[1], w2i = ti[1], w3r = tr[2], w3i = ti[2]
        for s in 0..<n {
            let a0r = xr[s], a0i = xi[s]
            let (a1r, a1i) = twiddle(xr[s + n], xi[s + n], w1r, w1i)
            let (a2r, a2i) = twiddle(xr[s + 2 * n], xi[s + 2 * n], w2r, w2i)
            let (a3r, a3i) = twiddle(xr[s + 3 * n], xi[s + 3 * n], w3r, w3i)
            let t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i
            let t2r = a1r + a3r, t2i = a1i + a3i, t3r = a1r - a3r, t3i = a1i - a3i
            yr[s] = t0r + t2r; yi[s] = t0i + t2i
            yr[s + stride] = t1r + t3i; yi[s + stride] = t1i - t3r  // t1 − i·t3
            yr[s + 2 * stride] = t0r - t2r; yi[s + 2 * stride] = t0i - t2i
            yr[s + 3 * stride] = t1r - t3i; yi[s + 3 * stride] = t1i + t3r  // t1 + i·t3
        }
    }

    @inline(__always)
    private static func radix5(
        _ xr: UnsafeMutablePointer<V>, _ xi: UnsafeMutablePointer<V>, _ yr: UnsafeMutablePointer<V>,
        _ yi: UnsafeMutablePointer<V>, _ n: Int, _ stride: Int, _ tr: UnsafeMutablePointer<Float>,
        _ ti: UnsafeMutablePointer<Float>
    ) {
        let c1: Float = 0.309_016_994_374_947_4, c2: Float = -0.809_016_994_374_947_4  // cos 2π/5, cos 4π/5
        let s1: Float = 0.951_056_516_295_153_6, s2: Float = 0.587_785_252_292_473_1  // sin 2π/5, sin 4π/5
        for s in 0..<n {
            let a0r = xr[s], a0i = xi[s]
            let (a1r, a1i) = twiddle(xr[s + n], xi[s + n], tr[0], ti[0])
            let (a2r, a2i) = twiddle(xr[s + 2 * n], xi[s + 2 * n], tr[1], ti[1])
            let (a3r, a3i) = twiddle(xr[s + 3 * n], xi[s + 3 * n], tr[2], ti[2])
            let (a4r, a4i) = twiddle(xr[s + 4 * n], xi[s + 4 * n], tr[3], ti[3])
            let b1r = a1r + a4r, b1i = a1i + a4i, d1r = a1r - a4r, d1i = a1i - a4i
            let b2r = a2r + a3r, b2i = a2i + a3i, d2r = a2r - a3r, d2i = a2i - a3i
            let m1r = a0r + b1r * c1 + b2r * c2, m1i = a0i + b1i * c1 + b2i * c2
            let m2r = a0r + b1r * c2 + b2r * c1, m2i = a0i + b1i * c2 + b2i * c1
            let n1r = d1r * s1 + d2r * s2, n1i = d1i * s1 + d2i * s2
            let n2r = d1r * s2 - d2r * s1, n2i = d1i * s2 - d2i * s1
            yr[s] = a0r + b1r + b2r; yi[s] = a0i + b1i + b2i
            yr[s + stride] = m1r + n1i; yi[s + stride] = m1i - n1r  // m1 − i·n1
            yr[s + 2 * stride] = m2r + n2i; yi[s + 2 * stride] = m2i - n2r  // m2 − i·n2
            yr[s + 3 * stride] = m2r - n2i; yi[s + 3 * stride] = m2i + n2r  // m2 + i·n2
            yr[s + 4 * stride] = m1r - n1i; yi[s + 4 * stride] = m1i + n1r  // m1 + i·n1
        }
    }
}
