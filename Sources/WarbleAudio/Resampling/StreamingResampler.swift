import CSoxr

/// Chunked sample-rate conversion with libsoxr: feed chunks with `process(_:)` as they arrive, then
/// call `finish()` once for the tail held in the filter. The concatenated outputs equal a whole-buffer
/// conversion (up to the final length, which `Resampler` rounds).
///
/// Not `Sendable`: it owns libsoxr state; use it from one task.
public final class StreamingResampler {
    public let inputRate: Int
    public let outputRate: Int
    public let channelCount: Int
    public let quality: ResamplerQuality
    private let soxr: soxr_t
    private var isFinished = false

    public init(inputRate: Int, outputRate: Int, channelCount: Int = 1, quality: ResamplerQuality = .high) throws(ResamplerError) {
        guard inputRate > 0 else { throw .invalidSampleRate(inputRate) }
        guard outputRate > 0 else { throw .invalidSampleRate(outputRate) }
        guard channelCount >= 1 else { throw .invalidChannelCount(channelCount) }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channelCount = channelCount
        self.quality = quality
        var io = soxr_io_spec(SOXR_FLOAT32_S, SOXR_FLOAT32_S)
        var q = soxr_quality_spec(quality.recipe, 0)
        var runtime = soxr_runtime_spec(1)
        var error: soxr_error_t?
        let handle = soxr_create(Double(inputRate), Double(outputRate), UInt32(channelCount), &error, &io, &q, &runtime)
        guard let handle, error == nil else {
            throw .soxr(error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        soxr = handle
    }

    deinit { soxr_delete(soxr) }

    /// Resamples the next chunk; the output may be shorter or empty while the filter fills.
    public func process(_ chunk: AudioBuffer) throws(ResamplerError) -> AudioBuffer {
        guard !isFinished else { throw .finished }
        guard chunk.sampleRate == inputRate, chunk.channelCount == channelCount else {
            throw .mismatchedChunk(
                sampleRate: chunk.sampleRate, channelCount: chunk.channelCount,
                expectedSampleRate: inputRate, expectedChannelCount: channelCount)
        }
        return try run(chunk.channels, frames: chunk.frameCount)
    }

    /// Flushes the filter: the last output frames. Further calls to `process` throw.
    public func finish() throws(ResamplerError) -> AudioBuffer {
        guard !isFinished else { throw .finished }
        isFinished = true
        return try run(nil, frames: 0)
    }

    private func run(_ input: [[Float]]?, frames: Int) throws(ResamplerError) -> AudioBuffer {
        let ratio = Double(outputRate) / Double(inputRate)
        let step = max(1024, Int((Double(frames) * ratio).rounded(.up)) + 64)
        var output = [[Float]](repeating: [], count: channelCount)
        let scratch = (0..<channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: step) }
        defer { scratch.forEach { $0.deallocate() } }
        var consumed = 0
        var failure: String?
        let inputPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: channelCount)
        let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: channelCount)
        defer { inputPointers.deallocate(); outputPointers.deallocate() }
        for c in 0..<channelCount { outputPointers[c] = scratch[c] }

        // Arrays cannot be pinned across the loop from a [[Float]] without nesting closures, so the input
        // is copied once into contiguous storage per channel.
        let inputCopies = (input ?? []).map { channel -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(channel.count, 1))
            channel.withUnsafeBufferPointer { if let base = $0.baseAddress { p.update(from: base, count: channel.count) } }
            return p
        }
        defer { inputCopies.forEach { $0.deallocate() } }

        while true {
            var done = 0, produced = 0
            let error: soxr_error_t?
            if input != nil {
                for c in 0..<channelCount { inputPointers[c] = UnsafePointer(inputCopies[c] + consumed) }
                error = soxr_process(soxr, UnsafeRawPointer(inputPointers), frames - consumed, &done,
                                     UnsafeMutableRawPointer(outputPointers), step, &produced)
            } else {
                error = soxr_process(soxr, nil, 0, nil, UnsafeMutableRawPointer(outputPointers), step, &produced)
            }
            if let error { failure = String(cString: error); break }
            consumed += done
            for c in 0..<channelCount { output[c].append(contentsOf: UnsafeBufferPointer(start: scratch[c], count: produced)) }
            // Done when all input is taken and the output buffer was not filled (nothing more pending).
            if consumed >= frames && produced < step { break }
            if input != nil && done == 0 && produced == 0 { break }
        }
        if let failure { throw .soxr(failure) }
        do { return try AudioBuffer(channels: output, sampleRate: outputRate) } catch {
            throw .soxr("internal: \(error)")
        }
    }
}
