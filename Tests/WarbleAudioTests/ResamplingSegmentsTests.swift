import Foundation
import Testing
@testable import WarbleAudio

/// Long buffers converted in segments on several threads equal one single-threaded conversion.
@Suite struct ResamplingSegmentsTests {
    @Test func segmentsTileTheOutputOnWholePeriods() {
        // 60 s at 44.1 kHz → 16 kHz in four parts: period 441 input frames ↔ 160 output frames.
        let frames = 44100 * 60, outputFrames = 16000 * 60
        let plan = ResamplingSegments(inputRate: 44100, outputRate: 16000, frames: frames, outputFrames: outputFrames, parts: 4)
        #expect(plan.segments.count == 4)
        #expect(plan.segments.first?.output.lowerBound == 0 && plan.segments.last?.output.upperBound == outputFrames)
        #expect(plan.segments.first?.input.lowerBound == 0 && plan.segments.last?.input.upperBound == frames)
        for (a, b) in zip(plan.segments, plan.segments.dropFirst()) {
            #expect(a.output.upperBound == b.output.lowerBound)  // no gap, no overlap
            #expect(b.input.lowerBound % 441 == 0 && b.skip % 160 == 0 && b.skip > 0)
            #expect(b.input.lowerBound < a.input.upperBound)  // warm-up on both sides
        }
    }

    @Test func shortBuffersAreNotSplit() {
        let plan = ResamplingSegments(inputRate: 24000, outputRate: 16000, frames: 24000 * 3, outputFrames: 16000 * 3, parts: 8)
        #expect(plan.segments.count == 1)
        #expect(plan.segments[0] == .init(input: 0..<72000, skip: 0, output: 0..<48000))
    }

    /// Rates up and down, HQ and VHQ, mono and stereo; 9.3 s of a deterministic chirp plus noise.
    @Test(arguments: [
        (44100, 16000, ResamplerQuality.high, 1), (24000, 16000, .high, 2), (16000, 22050, .veryHigh, 1),
        (22050, 24000, .high, 1), (16000, 48000, .high, 1), (48000, 8000, .veryHigh, 1), (44100, 48000, .high, 2),
    ])
    func segmentedEqualsSingleThreaded(inputRate: Int, outputRate: Int, quality: ResamplerQuality, channels: Int) throws {
        let frames = inputRate * 93 / 10
        var seed: UInt64 = 7
        let signal = (0..<frames).map { i -> Float in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = Float(Int64(bitPattern: seed) >> 40) / Float(1 << 23)
            let t = Double(i) / Double(inputRate)
            return Float(0.4 * sin(2 * Double.pi * (100 * t + 400 * t * t))) + 0.05 * noise
        }
        let x = try AudioBuffer(channels: (0..<channels).map { c in c == 0 ? signal : signal.map { -0.5 * $0 } }, sampleRate: inputRate)
        let single = try x.resampled(to: outputRate, quality: quality, threads: 1)
        let split = try x.resampled(to: outputRate, quality: quality, threads: 4)
        let plan = ResamplingSegments(
            inputRate: inputRate, outputRate: outputRate, frames: frames, outputFrames: single.frameCount, parts: 4)
        #expect(plan.segments.count > 1, "9.3 s should be split; got \(plan.segments.count) segment")
        #expect(split.frameCount == single.frameCount && split.channelCount == channels)
        // Tolerance: max abs 1e-6 (float rounding of libsoxr's DFT blocks; peak 0.45).
        for c in 0..<channels {
            let diff = maxAbsDiff(split.channels[c], single.channels[c])
            #expect(diff < 1e-6, "\(inputRate) → \(outputRate) channel \(c): segmented differs by \(diff); tolerance 1e-6")
        }
    }

    @Test func threadCountIsCheckedAndOneByDefault() throws {
        #expect(throws: ResamplerError.invalidThreadCount(-1)) { try Resampler(outputRate: 16000, threads: -1) }
        #expect(try Resampler(outputRate: 16000).threads == 1)
    }
}
