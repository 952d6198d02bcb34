extension AudioBuffer {
    /// The average of all channels, as a mono buffer (a mono buffer is returned unchanged).
    public func mixedToMono() -> AudioBuffer {
        if channelCount == 1 { return self }
        let frames = frameCount
        let scale = 1 / Float(channelCount)
        var mix = [Float](repeating: 0, count: frames)
        mix.withUnsafeMutableBufferPointer { dest in
            for channel in channels {
                channel.withUnsafeBufferPointer { src in
                    for f in 0..<frames { dest[f] += src[f] }
                }
            }
            for f in 0..<frames { dest[f] *= scale }
        }
        return AudioBuffer(mono: mix, sampleRate: sampleRate)
    }

    /// One channel as a mono buffer.
    public func channel(_ index: Int) throws(AudioBufferError) -> AudioBuffer {
        guard channels.indices.contains(index) else { throw .channelOutOfRange(index, channelCount: channelCount) }
        return AudioBuffer(mono: channels[index], sampleRate: sampleRate)
    }

    /// The chosen channels, in the given order (a channel may be repeated, e.g. mono → stereo).
    public func selectingChannels(_ indices: [Int]) throws(AudioBufferError) -> AudioBuffer {
        guard !indices.isEmpty else { throw .noChannels }
        var picked = [[Float]]()
        for index in indices {
            guard channels.indices.contains(index) else { throw .channelOutOfRange(index, channelCount: channelCount) }
            picked.append(channels[index])
        }
        var result = self
        result.channels = picked
        return result
    }

    /// Frames `range` (clamped to the buffer).
    public func slice(frames range: Range<Int>) -> AudioBuffer {
        let lower = min(max(range.lowerBound, 0), frameCount)
        let upper = min(max(range.upperBound, lower), frameCount)
        var result = self
        result.channels = channels.map { Array($0[lower..<upper]) }
        return result
    }

    /// The part between two times in seconds (clamped to the buffer).
    public func slice(seconds start: Double, _ end: Double) -> AudioBuffer {
        slice(frames: Int((start * Double(sampleRate)).rounded())..<Int((end * Double(sampleRate)).rounded()))
    }

    /// Appends another buffer with the same sample rate and channel count.
    public mutating func append(_ other: AudioBuffer) throws(AudioBufferError) {
        guard other.sampleRate == sampleRate else { throw .sampleRateMismatch(other.sampleRate, expected: sampleRate) }
        guard other.channelCount == channelCount else {
            throw .channelCountMismatch(other.channelCount, expected: channelCount)
        }
        for c in channels.indices { channels[c].append(contentsOf: other.channels[c]) }
    }

    /// `append` for buffers whose rate and channel count match by construction (traps otherwise).
    mutating func appendMatching(_ other: AudioBuffer) {
        precondition(other.sampleRate == sampleRate && other.channelCount == channelCount)
        for c in channels.indices { channels[c].append(contentsOf: other.channels[c]) }
    }

    /// Buffers joined end to end; all must share sample rate and channel count.
    public static func concatenating(_ buffers: [AudioBuffer]) throws(AudioBufferError) -> AudioBuffer {
        guard var result = buffers.first else { throw .noChannels }
        let total = buffers.reduce(0) { $0 + $1.frameCount }
        for c in result.channels.indices { result.channels[c].reserveCapacity(total) }
        for buffer in buffers.dropFirst() { try result.append(buffer) }
        return result
    }
}
