extension AudioBuffer {
    /// From interleaved 16-bit PCM, scaled by 1/32768 (as `WAVDecoder` and Python's soundfile do).
    public init(pcm16 samples: [Int16], channelCount: Int, sampleRate: Int) throws(AudioBufferError) {
        try self.init(interleaved: samples.map { Float($0) * (1 / 32768) }, channelCount: channelCount, sampleRate: sampleRate)
    }

    /// Interleaved 16-bit PCM: samples × 32768, rounded, clipped to Int16's range (NaN → 0); the exact
    /// inverse of `init(pcm16:channelCount:sampleRate:)`. For speech-dispatcher and audio devices.
    public func pcm16Interleaved() -> [Int16] {
        interleaved().map { Int16(WAVSampleEncoding.quantize($0, scale: 32768)) }
    }
}
