extension AudioBuffer {
    /// The range of frames between the first and last analysis window whose RMS (over all channels)
    /// reaches `threshold` dBFS, widened by `padding` frames each side; nil when all is below.
    public func nonSilentRange(threshold: Double = -50, windowLength: Int = 256, padding: Int = 0) -> Range<Int>? {
        precondition(windowLength >= 1)
        let limit = Float(AudioLevel.amplitude(fromDecibels: threshold))
        let squaredLimit = Double(limit) * Double(limit)
        let windows = (frameCount + windowLength - 1) / windowLength
        var first: Int?, last: Int?
        for w in 0..<windows {
            let start = w * windowLength, end = min(start + windowLength, frameCount)
            var sum = 0.0
            for channel in channels { for i in start..<end { sum += Double(channel[i]) * Double(channel[i]) } }
            if sum / Double((end - start) * channelCount) >= squaredLimit {
                if first == nil { first = w }
                last = w
            }
        }
        guard let first, let last else { return nil }
        let lower = max(0, first * windowLength - padding)
        let upper = min(frameCount, (last + 1) * windowLength + padding)
        return lower..<upper
    }

    /// Leading and trailing silence removed (see `nonSilentRange`); all-silent audio becomes empty.
    public func trimmingSilence(threshold: Double = -50, windowLength: Int = 256, padding: Int = 0) -> AudioBuffer {
        slice(frames: nonSilentRange(threshold: threshold, windowLength: windowLength, padding: padding) ?? 0..<0)
    }
}
