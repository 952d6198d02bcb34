import Foundation
import Testing
@testable import WarbleAudio

/// LowFrameRate (sherpa-onnx's lfr-test.cc cases), QuietCuts, and KaldiLinearResampler (Kaldi's output count and a
/// band-limited sine through it). Parity of the whole chain with sherpa-onnx: Tests/WarbleModelsTests/SenseVoiceTests.
@Suite struct FrameStackingAndCutsTests {
    @Test func lowFrameRateRepeatsTheEdges() {
        // sherpa-onnx's lfr-test.cc: 13 one-value frames, window 7, shift 6.
        let input = FeatureMatrix(rows: 13, columns: 1, values: (0..<13).map(Float.init))
        let out = LowFrameRate(window: 7, shift: 6)(input)
        #expect(out.rows == 3 && out.columns == 7)
        #expect(out.values == [0, 0, 0, 0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 12, 12, 12, 12])
        #expect([1, 5, 6, 7, 12, 13, 20].map { LowFrameRate(window: 7, shift: 6).outputCount(frames: $0) } == [1, 1, 1, 2, 2, 3, 4])
        let wide = LowFrameRate(window: 3, shift: 2)(FeatureMatrix(rows: 2, columns: 2, values: [0, 1, 2, 3]))
        #expect(wide.values == [0, 1, 0, 1, 2, 3])
        #expect(LowFrameRate(window: 7, shift: 6)(FeatureMatrix(rows: 0, columns: 80)).rows == 0)
    }

    @Test func longAudioIsCutAtItsQuietestMoments() {
        var samples = [Float](repeating: 0.5, count: 1000)
        for i in 700..<720 { samples[i] = 0 }
        let pieces = QuietCuts.pieces(samples, maximum: 800, search: 400, window: 20)
        #expect(pieces.count == 2 && pieces[0].upperBound >= 700 && pieces[0].upperBound <= 720 && pieces[1].upperBound == 1000)
        #expect(QuietCuts.pieces(samples, maximum: 1000, search: 400, window: 20) == [0..<1000])
        #expect(QuietCuts.pieces([], maximum: 1000, search: 400, window: 20) == [0..<0])
    }

    /// Kaldi's count: the output instants strictly inside the input's duration; a 1 kHz sine keeps its amplitude
    /// away from the edges (the filter passes 99 % of the lower Nyquist frequency).
    @Test func kaldiLinearResamplerKeepsABandLimitedSine() {
        let resampler = KaldiLinearResampler(from: 44100, to: 16000)
        #expect(resampler.outputCount(44100) == 16000 && resampler.outputCount(441) == 160 && resampler.outputCount(0) == 0)
        let sine: [Float] = (0..<44100).map { n in Float(sin(2 * Double.pi * 1000 * Double(n) / 44100)) }
        let out = resampler(sine)
        #expect(out.count == 16000)
        var worst: Float = 0
        for n in 200..<15800 {
            let expected = Float(sin(2 * Double.pi * 1000 * Double(n) / 16000))
            worst = max(worst, abs(out[n] - expected))
        }
        #expect(worst < 2e-3, "max |Δ| \(worst)")
        let up = KaldiLinearResampler(from: 8000, to: 16000)
        #expect(up.outputCount(8000) == 16000)
    }
}
