import Foundation
import Testing
@testable import WarbleAudio
import WarbleTestSupport

/// Warble's resampling against python-soxr (its own libsoxr 0.1.3 build, default run-time settings) on
/// inputs longer than one piece Warble feeds libsoxr: whole buffers, stereo and streaming in uneven
/// chunks. Warble uses a larger minimum DFT (`SoxrTuning`), so samples differ by float rounding only.
@Suite struct ResamplerParityTests {
    /// Tolerance for every comparison here: max abs difference < 1e-6 (signals peak near 0.5–1;
    /// measured 2.4e-7) and SNR against python-soxr > 120 dB (measured 132.7 dB).
    static let maxAbs: Float = 1e-6
    static let minimumSNR = 120.0

    /// One thread, and three segments on separate threads (6 s splits into three 2 s segments).
    @Test(.needs(fixtures: "audio"), arguments: [1, 3])
    func wholeBufferMatchesPythonSoxr(threads: Int) throws {
        let x = AudioBuffer(mono: try Fixtures.array("input_44k_long").values, sampleRate: 44100)
        let expected = try Fixtures.array("soxr_44100_16000_hq_long").values
        let y = try x.resampled(to: 16000, threads: threads)
        #expect(y.frameCount == expected.count)
        let diff = maxAbsDiff(y.samples, expected), ratio = snr(y.samples, reference: expected)
        #expect(diff < Self.maxAbs, "max abs \(diff) vs python-soxr; tolerance \(Self.maxAbs)")
        #expect(ratio > Self.minimumSNR, "SNR \(ratio) dB vs python-soxr; required > \(Self.minimumSNR) dB")
    }

    @Test(.needs(fixtures: "audio"), arguments: [1, 2])
    func stereoMatchesPythonSoxrPerChannel(threads: Int) throws {
        let left = try Fixtures.array("input_44k_long").values
        let (interleaved, shape) = try Fixtures.array("soxr_stereo_44100_16000_hq")
        let expected = try AudioBuffer(interleaved: interleaved, channelCount: shape[1], sampleRate: 16000)
        let x = try AudioBuffer(channels: [left, left.reversed().map { 0.5 * $0 }], sampleRate: 44100)
        let y = try x.resampled(to: 16000, threads: threads)
        #expect(y.channelCount == 2 && y.frameCount == expected.frameCount)
        for c in 0..<2 {
            let diff = maxAbsDiff(y.channels[c], expected.channels[c])
            #expect(diff < Self.maxAbs, "channel \(c): max abs \(diff) vs python-soxr; tolerance \(Self.maxAbs)")
        }
    }

    @Test(.needs(fixtures: "audio")) func streamingMatchesPythonSoxrStream() throws {
        // The same uneven chunks as python-soxr's ResampleStream in make_fixtures.py.
        let x = try Fixtures.array("input_44k_long").values
        let expected = try Fixtures.array("soxr_stream_44100_16000_hq").values
        let resampler = try StreamingResampler(inputRate: 44100, outputRate: 16000)
        var output = [Float](), start = 0
        for size in [1, 100, 4096, 333, 30000, 70000] {
            output += try resampler.process(AudioBuffer(mono: Array(x[start..<(start + size)]), sampleRate: 44100)).samples
            start += size
        }
        output += try resampler.process(AudioBuffer(mono: Array(x[start...]), sampleRate: 44100)).samples
        output += try resampler.finish().samples
        #expect(output.count == expected.count)
        let diff = maxAbsDiff(output, expected)
        #expect(diff < Self.maxAbs, "max abs \(diff) vs python-soxr's stream; tolerance \(Self.maxAbs)")
    }

    @Test func engineIsSinglePrecisionSIMD() throws {
        // HQ runs libsoxr's single-precision engine; with SIMD (SSE on x86-64) it is "cr32s", as in
        // python-soxr's wheel (its CSoxr.engine() says so; scripts/bench-audio.sh prints both).
        let engine = try StreamingResampler(inputRate: 44100, outputRate: 16000).engine
        #if arch(x86_64)
        #expect(engine == "cr32s", "libsoxr engine \(engine) for HQ; expected cr32s (single precision, SIMD)")
        #else
        #expect(engine.hasPrefix("cr32"), "libsoxr engine \(engine) for HQ; expected cr32 or cr32s")
        #endif
    }
}
