import Foundation
import CSoxr

/// libsoxr quality presets.
public enum ResamplerQuality: Sendable, Equatable {
    /// Cubic interpolation (SOXR_QQ).
    case quick
    /// 16-bit, large roll-off (SOXR_LQ).
    case low
    /// 16-bit, medium roll-off (SOXR_MQ).
    case medium
    /// 20-bit (SOXR_HQ), the default, as in python-soxr and librosa.
    case high
    /// 28-bit (SOXR_VHQ).
    case veryHigh

    var recipe: UInt {
        switch self {
        case .quick: UInt(SOXR_QQ)
        case .low: UInt(SOXR_LQ)
        case .medium: UInt(SOXR_MQ)
        case .high: UInt(SOXR_20_BITQ)
        case .veryHigh: UInt(SOXR_28_BITQ)
        }
    }
}

/// Whole-buffer sample-rate conversion with libsoxr. The output has round(frames · out / in) frames
/// (python-soxr's `resample` gives the same count) and is aligned with the input (libsoxr removes its
/// filter delay). Channels are resampled planar, without interleaving.
///
/// With `threads` other than 1, buffers of several seconds are cut into segments converted on up to
/// that many threads (see `ResamplingSegments`); the result equals a single-threaded conversion up
/// to float rounding (1e-6).
public struct Resampler: Sendable, Equatable {
    public let outputRate: Int
    public let quality: ResamplerQuality
    /// Most threads one conversion uses: 1 (the default) for the calling thread only, 0 for one per
    /// active processor. One is the default by measurement: on the shared two-core machine the
    /// benchmarks run on, segments on both cores were no faster (60 s 44.1k → 16k: median 11.1 ms
    /// against 10.1 ms on one thread, the other core being busy). Idle cores should share the work
    /// (not measurable there).
    public let threads: Int

    public init(outputRate: Int, quality: ResamplerQuality = .high, threads: Int = 1) throws(ResamplerError) {
        guard outputRate > 0 else { throw .invalidSampleRate(outputRate) }
        guard threads >= 0 else { throw .invalidThreadCount(threads) }
        self.outputRate = outputRate
        self.quality = quality
        self.threads = threads
    }

    /// `buffer` at `outputRate` (unchanged when the rates already match).
    public func callAsFunction(_ buffer: AudioBuffer) throws(ResamplerError) -> AudioBuffer {
        if buffer.sampleRate == outputRate { return buffer }
        let frames = Int((Double(buffer.frameCount) * Double(outputRate) / Double(buffer.sampleRate)).rounded())
        let parts = threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : threads
        let plan = ResamplingSegments(
            inputRate: buffer.sampleRate, outputRate: outputRate, frames: buffer.frameCount, outputFrames: frames, parts: parts)
        if plan.segments.count > 1 { return try convertSegments(buffer, plan: plan, frames: frames) }
        let resampler = try StreamingResampler(
            inputRate: buffer.sampleRate, outputRate: outputRate, channelCount: buffer.channelCount, quality: quality)
        return try resampler.convertWhole(buffer, frames: frames)
    }
}

extension AudioBuffer {
    /// This audio at `sampleRate`, resampled with libsoxr (`threads`: see `Resampler.threads`).
    public func resampled(to sampleRate: Int, quality: ResamplerQuality = .high, threads: Int = 1) throws(ResamplerError) -> AudioBuffer {
        try Resampler(outputRate: sampleRate, quality: quality, threads: threads)(self)
    }
}
