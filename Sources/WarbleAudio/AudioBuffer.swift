/// Float32 audio with a sample rate, stored **planar**: one contiguous `[Float]` per channel.
///
/// Planar storage was chosen because every consumer in Warble works per channel (models take mono,
/// DSP runs on one channel at a time), so channel access costs nothing; interleaving happens only at
/// the I/O edges (`interleaved()`, `init(interleaved:channelCount:sampleRate:)`), where WAV files,
/// libsndfile and libsoxr want it. Samples are nominally in [-1, 1]; nothing clips them until they
/// are encoded to integer PCM.
///
/// The invariants (at least one channel, all channels the same length, a positive sample rate) are
/// checked by the throwing initialisers and kept by every method.
public struct AudioBuffer: Sendable, Equatable {
    /// The samples of each channel; all have `frameCount` samples.
    public internal(set) var channels: [[Float]]
    /// Frames per second.
    public let sampleRate: Int

    /// A mono buffer. Traps if `sampleRate` is not positive (a programming error, not bad input).
    public init(mono samples: [Float], sampleRate: Int) {
        precondition(sampleRate > 0, "AudioBuffer: sample rate must be positive, got \(sampleRate)")
        self.channels = [samples]
        self.sampleRate = sampleRate
    }

    /// A buffer from planar channels of equal length.
    public init(channels: [[Float]], sampleRate: Int) throws(AudioBufferError) {
        guard sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard let first = channels.first else { throw .noChannels }
        for (index, channel) in channels.enumerated() where channel.count != first.count {
            throw .channelLengthMismatch(channel: index, count: channel.count, expected: first.count)
        }
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// A buffer from interleaved samples (frame 0 channel 0, frame 0 channel 1, …).
    public init(interleaved samples: [Float], channelCount: Int, sampleRate: Int) throws(AudioBufferError) {
        guard sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard channelCount > 0 else { throw .noChannels }
        guard samples.count % channelCount == 0 else {
            throw .partialFrame(sampleCount: samples.count, channelCount: channelCount)
        }
        let frames = samples.count / channelCount
        if channelCount == 1 {
            self.channels = [samples]
        } else {
            var planar = [[Float]]()
            planar.reserveCapacity(channelCount)
            samples.withUnsafeBufferPointer { source in
                for c in 0..<channelCount {
                    planar.append([Float](unsafeUninitializedCapacity: frames) { dest, count in
                        for f in 0..<frames { dest[f] = source[f * channelCount + c] }
                        count = frames
                    })
                }
            }
            self.channels = planar
        }
        self.sampleRate = sampleRate
    }

    /// `count` frames of silence.
    public static func silence(frames count: Int, channelCount: Int = 1, sampleRate: Int) -> AudioBuffer {
        precondition(channelCount > 0 && count >= 0)
        // Cannot fail: equal lengths, positive rate checked by the precondition of init(mono:).
        var buffer = AudioBuffer(mono: [Float](repeating: 0, count: count), sampleRate: sampleRate)
        buffer.channels = Array(repeating: buffer.channels[0], count: channelCount)
        return buffer
    }

    public var channelCount: Int { channels.count }
    public var frameCount: Int { channels[0].count }
    public var isEmpty: Bool { frameCount == 0 }
    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// The first channel's samples: the natural accessor for mono audio (see `mixedToMono()`).
    public var samples: [Float] { channels[0] }

    /// Samples interleaved frame by frame.
    public func interleaved() -> [Float] {
        let n = channelCount
        if n == 1 { return channels[0] }
        let frames = frameCount
        return [Float](unsafeUninitializedCapacity: frames * n) { dest, count in
            for c in 0..<n {
                channels[c].withUnsafeBufferPointer { src in
                    for f in 0..<frames { dest[f * n + c] = src[f] }
                }
            }
            count = frames * n
        }
    }

    /// Mutates the samples of every channel in place; the closure must not change their count.
    public mutating func modifyChannels(_ body: (inout [Float]) throws -> Void) rethrows {
        let frames = frameCount
        for c in channels.indices {
            try body(&channels[c])
            precondition(channels[c].count == frames, "AudioBuffer.modifyChannels changed a channel's length")
        }
    }
}

/// Invalid shapes given to `AudioBuffer`.
public enum AudioBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSampleRate(Int)
    case noChannels
    case channelLengthMismatch(channel: Int, count: Int, expected: Int)
    case partialFrame(sampleCount: Int, channelCount: Int)
    case channelOutOfRange(Int, channelCount: Int)
    case sampleRateMismatch(Int, expected: Int)
    case channelCountMismatch(Int, expected: Int)

    public var description: String {
        switch self {
        case .invalidSampleRate(let rate):
            "invalid sample rate \(rate) Hz: a positive number of frames per second is required"
        case .noChannels:
            "audio needs at least one channel, got none"
        case let .channelLengthMismatch(channel, count, expected):
            "channel \(channel) has \(count) samples but channel 0 has \(expected): all channels must be the same length"
        case let .partialFrame(sampleCount, channelCount):
            "\(sampleCount) interleaved samples is not a whole number of \(channelCount)-channel frames"
        case let .channelOutOfRange(channel, channelCount):
            "channel \(channel) does not exist: the buffer has channels 0..<\(channelCount)"
        case let .sampleRateMismatch(rate, expected):
            "sample rate \(rate) Hz differs from \(expected) Hz: resample first"
        case let .channelCountMismatch(count, expected):
            "\(count) channels differs from \(expected): mix or select channels first"
        }
    }
}
