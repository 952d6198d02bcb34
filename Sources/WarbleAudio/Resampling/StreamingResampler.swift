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
        try convert(chunk, flush: false)
    }

    /// Flushes the filter: the last output frames. Further calls to `process` throw.
    public func finish() throws(ResamplerError) -> AudioBuffer {
        guard !isFinished else { throw .finished }
        return try run(nil, frames: 0, flush: true)
    }

    /// `chunk` converted, then (with `flush`) the filter's tail, in one output without extra copies.
    func convert(_ chunk: AudioBuffer, flush: Bool) throws(ResamplerError) -> AudioBuffer {
        guard !isFinished else { throw .finished }
        guard chunk.sampleRate == inputRate, chunk.channelCount == channelCount else {
            throw .mismatchedChunk(
                sampleRate: chunk.sampleRate, channelCount: chunk.channelCount,
                expectedSampleRate: inputRate, expectedChannelCount: channelCount)
        }
        let result = Self.withChannelPointers(chunk.channels) { pointers in
            Result { () throws(ResamplerError) in try run(pointers, frames: chunk.frameCount, flush: flush) }
        }
        return try result.get()
    }

    /// Pointers to every channel's storage, valid inside `body` (no copies).
    private static func withChannelPointers<R>(
        _ channels: [[Float]], _ collected: [UnsafePointer<Float>] = [], _ body: ([UnsafePointer<Float>]) -> R
    ) -> R {
        if collected.count == channels.count { return body(collected) }
        return channels[collected.count].withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Float>.alignment)!
            return withChannelPointers(channels, collected + [base], body)
        }
    }

    /// Feeds `frames` frames from `input` (planar pointers; nil for none) and, with `flush`, the end
    /// of input; collects all output libsoxr gives.
    private func run(_ input: [UnsafePointer<Float>]?, frames: Int, flush: Bool) throws(ResamplerError) -> AudioBuffer {
        let ratio = Double(outputRate) / Double(inputRate)
        var capacity = Int((Double(frames) * ratio).rounded(.up)) + (flush ? 4096 : 64)
        // Raw per-channel output buffers that libsoxr writes into; copied once into arrays at the end.
        var buffers = (0..<channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: capacity) }
        defer { buffers.forEach { $0.deallocate() } }
        let inputPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: channelCount)
        let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: channelCount)
        defer { inputPointers.deallocate(); outputPointers.deallocate() }
        var produced = 0, consumed = 0
        var feeding = input != nil && frames > 0
        while true {
            if produced == capacity {
                let larger = capacity * 2
                buffers = buffers.map { old in
                    let new = UnsafeMutablePointer<Float>.allocate(capacity: larger)
                    new.update(from: old, count: produced)
                    old.deallocate()
                    return new
                }
                capacity = larger
            }
            let room = capacity - produced
            for c in 0..<channelCount { outputPointers[c] = buffers[c] + produced }
            var done = 0, made = 0
            let error: soxr_error_t?
            if feeding, let input {
                for c in 0..<channelCount { inputPointers[c] = input[c] + consumed }
                error = soxr_process(soxr, UnsafeRawPointer(inputPointers), frames - consumed, &done,
                                     UnsafeMutableRawPointer(outputPointers), room, &made)
            } else if flush {
                error = soxr_process(soxr, nil, 0, nil, UnsafeMutableRawPointer(outputPointers), room, &made)
            } else {
                break
            }
            if let error { throw .soxr(String(cString: error)) }
            consumed += done
            produced += made
            if feeding {
                // Keep feeding until libsoxr has taken every frame; it may stop early when output is full.
                if consumed >= frames { feeding = false; if !flush && made < room { break } }
                continue
            }
            if made < room { break }  // flushing: a short write means the tail is out
        }
        if flush { isFinished = true }
        let channels = buffers.map { buffer in Array(UnsafeBufferPointer(start: buffer, count: produced)) }
        do { return try AudioBuffer(channels: channels, sampleRate: outputRate) } catch {
            throw .soxr("internal: \(error)")
        }
    }
}
