/// A resampling request that cannot be carried out.
public enum ResamplerError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSampleRate(Int)
    case invalidChannelCount(Int)
    case invalidThreadCount(Int)
    /// A chunk whose rate or channel count differs from the streaming resampler's.
    case mismatchedChunk(sampleRate: Int, channelCount: Int, expectedSampleRate: Int, expectedChannelCount: Int)
    /// Input after `finish()`.
    case finished
    /// libsoxr reported an error.
    case soxr(String)

    public var description: String {
        switch self {
        case .invalidSampleRate(let rate):
            "cannot resample to or from \(rate) Hz: rates must be positive"
        case .invalidChannelCount(let count):
            "cannot resample \(count) channels: 1 or more are required"
        case .invalidThreadCount(let count):
            "cannot resample on \(count) threads: 0 (one per processor) or a positive count is accepted"
        case let .mismatchedChunk(rate, channels, expectedRate, expectedChannels):
            "chunk is \(channels) channels at \(rate) Hz but the resampler was made for \(expectedChannels) "
                + "channels at \(expectedRate) Hz"
        case .finished:
            "the streaming resampler was already finished: make a new one for a new stream"
        case .soxr(let message):
            "libsoxr: \(message)"
        }
    }
}
