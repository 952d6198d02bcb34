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
        runtime.log2_min_dft_size = SoxrTuning.log2MinimumDFTSize
        var error: soxr_error_t?
        let handle = soxr_create(Double(inputRate), Double(outputRate), UInt32(channelCount), &error, &io, &q, &runtime)
        guard let handle, error == nil else {
            throw .soxr(error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        soxr = handle
    }

    deinit { soxr_delete(soxr) }

    /// libsoxr's engine for this conversion, e.g. "cr32s" (single precision, SIMD) for `.high`.
    public var engine: String { String(cString: soxr_engine(soxr)) }

    /// The linked libsoxr's version, e.g. "libsoxr-0.1.3".
    public static var libraryVersion: String { String(cString: soxr_version()) }

    /// Resamples the next chunk; the output may be shorter or empty while the filter fills.
    public func process(_ chunk: AudioBuffer) throws(ResamplerError) -> AudioBuffer {
        try convert(chunk, flush: false)
    }

    /// Flushes the filter: the last output frames. Further calls to `process` throw.
    public func finish() throws(ResamplerError) -> AudioBuffer {
        guard !isFinished else { throw .finished }
        var pump = Pump(input: nil, frames: 0, flush: true)
        return try collect(&pump)
    }

    /// `chunk` converted, then (with `flush`) the filter's tail, in one output.
    func convert(_ chunk: AudioBuffer, flush: Bool) throws(ResamplerError) -> AudioBuffer {
        try checkInput(chunk)
        return try Self.withChannelPointers(chunk.channels) { pointers throws(ResamplerError) in
            var pump = Pump(input: pointers, frames: chunk.frameCount, flush: flush)
            return try collect(&pump)
        }
    }

    /// The whole of `buffer` converted and flushed into exactly `frames` output frames: libsoxr writes
    /// straight into the result's storage; output past `frames` is dropped, a shortfall is silence.
    func convertWhole(_ buffer: AudioBuffer, frames: Int) throws(ResamplerError) -> AudioBuffer {
        try checkInput(buffer)
        let channels = try Self.withChannelPointers(buffer.channels) { input throws(ResamplerError) in
            try Self.channelArrays(count: channelCount, capacity: frames) { output throws(ResamplerError) in
                try convertFlushing(input, frames: buffer.frameCount, skip: 0, into: output, count: frames)
                return frames
            }
        }
        return try Self.buffer(channels, sampleRate: outputRate)
    }

    /// Converts `frames` planar input frames and flushes; drops the first `skip` output frames, writes
    /// the next `count` into `output` (silence for any shortfall) and drops the rest. This object is
    /// used up (libsoxr may still hold output) and must not be used again.
    func convertFlushing(
        _ input: [UnsafePointer<Float>], frames: Int, skip: Int,
        into output: [UnsafeMutablePointer<Float>], count: Int
    ) throws(ResamplerError) {
        var pump = Pump(input: input, frames: frames, flush: true)
        if skip > 0 {
            let scratch = (0..<channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: skip) }
            defer { scratch.forEach { $0.deallocate() } }
            var skipped = 0
            while skipped < skip && !pump.isComplete {
                skipped += try run(&pump, into: scratch.map { $0 + skipped }, room: skip - skipped)
            }
        }
        let produced = pump.isComplete ? 0 : try run(&pump, into: output, room: count)
        for channel in output { (channel + produced).initialize(repeating: 0, count: count - produced) }
        isFinished = true
    }

    private func checkInput(_ chunk: AudioBuffer) throws(ResamplerError) {
        guard !isFinished else { throw .finished }
        guard chunk.sampleRate == inputRate, chunk.channelCount == channelCount else {
            throw .mismatchedChunk(
                sampleRate: chunk.sampleRate, channelCount: chunk.channelCount,
                expectedSampleRate: inputRate, expectedChannelCount: channelCount)
        }
    }

    /// All the output `pump` gives, written into arrays sized from libsoxr's pending delay plus the
    /// input still to come (enough in practice: a second round only runs if libsoxr gives more).
    private func collect(_ pump: inout Pump) throws(ResamplerError) -> AudioBuffer {
        var channels = [[Float]]()
        while !pump.isComplete {
            let ratio = Double(outputRate) / Double(inputRate)
            let capacity = Int((soxr_delay(soxr) + Double(pump.frames - pump.consumed) * ratio).rounded(.up)) + 64
            let more = try Self.channelArrays(count: channelCount, capacity: capacity) { output throws(ResamplerError) in
                try run(&pump, into: output, room: capacity)
            }
            if channels.isEmpty { channels = more } else { for c in channels.indices { channels[c] += more[c] } }
        }
        return try Self.buffer(channels, sampleRate: outputRate)
    }

    /// Input handed to libsoxr in pieces of at most this many frames: its internal FIFO then stays in
    /// cache instead of growing to hold (and copy) the whole input. Measured on 60 s at 44.1 kHz → 16 kHz:
    /// one call for everything (or `soxr_oneshot`) is 6–10 % slower than pieces of 8–32 k frames.
    static let feedFrames = 16384

    /// Where a conversion is: planar input, how much libsoxr has taken, whether the tail is out.
    private struct Pump {
        let input: [UnsafePointer<Float>]?
        let frames: Int
        let flush: Bool
        var consumed = 0
        var isComplete = false
    }

    /// Runs libsoxr until the pump's input is consumed (and, with `flush`, the tail is out) or `room`
    /// output frames are written; returns the frames written to each of `output`'s channels.
    private func run(_ pump: inout Pump, into output: [UnsafeMutablePointer<Float>], room: Int) throws(ResamplerError) -> Int {
        let inputPointers = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: channelCount)
        let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: channelCount)
        defer { inputPointers.deallocate(); outputPointers.deallocate() }
        var produced = 0
        while produced < room {
            for c in 0..<channelCount { outputPointers[c] = output[c] + produced }
            let space = room - produced
            var done = 0, made = 0
            let error: soxr_error_t?
            let piece = min(Self.feedFrames, pump.frames - pump.consumed)
            if let input = pump.input, piece > 0 {
                for c in 0..<channelCount { inputPointers[c] = input[c] + pump.consumed }
                error = soxr_process(soxr, UnsafeRawPointer(inputPointers), piece, &done,
                                     UnsafeMutableRawPointer(outputPointers), space, &made)
            } else if pump.flush {
                error = soxr_process(soxr, nil, 0, nil, UnsafeMutableRawPointer(outputPointers), space, &made)
            } else {
                pump.isComplete = true  // all input taken, no flush asked
                break
            }
            if let error { throw .soxr(String(cString: error)) }
            pump.consumed += done
            produced += made
            if piece <= 0 && made < space {
                pump.isComplete = true  // flushing, and libsoxr wrote less than it had room for: the tail is out
                isFinished = true
                break
            }
        }
        return produced
    }

    /// Pointers to every channel's storage, valid inside `body` (no copies).
    static func withChannelPointers<R>(
        _ channels: [[Float]], _ collected: [UnsafePointer<Float>] = [],
        _ body: ([UnsafePointer<Float>]) throws(ResamplerError) -> R
    ) throws(ResamplerError) -> R {
        if collected.count == channels.count { return try body(collected) }
        let result = channels[collected.count].withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Float>.alignment)!
            return Result { () throws(ResamplerError) in try withChannelPointers(channels, collected + [base], body) }
        }
        return try result.get()
    }

    /// `count` arrays of up to `capacity` floats, written in place through their storage by `fill`,
    /// which returns how many frames it initialised in each (the same for all, at most `capacity`).
    static func channelArrays(
        count: Int, capacity: Int, _ fill: ([UnsafeMutablePointer<Float>]) throws(ResamplerError) -> Int
    ) throws(ResamplerError) -> [[Float]] {
        var arrays = [[Float]]()
        var failure: ResamplerError?
        func nest(_ collected: [UnsafeMutablePointer<Float>]) -> Int {
            if collected.count == count {
                do throws(ResamplerError) { return try fill(collected) } catch { failure = error; return 0 }
            }
            var written = 0
            let array = [Float](unsafeUninitializedCapacity: max(capacity, 1)) { storage, initialised in
                written = nest(collected + [storage.baseAddress!])
                initialised = written
            }
            arrays.append(array)
            return written
        }
        _ = nest([])
        if let failure { throw failure }
        return arrays.reversed()  // the innermost (last) channel's array is appended first
    }

    private static func buffer(_ channels: [[Float]], sampleRate: Int) throws(ResamplerError) -> AudioBuffer {
        do { return try AudioBuffer(channels: channels, sampleRate: sampleRate) } catch {
            throw .soxr("internal: \(error)")
        }
    }
}

/// libsoxr run-time settings chosen by measurement (scripts/bench-audio.sh; figures in README).
enum SoxrTuning {
    /// Smallest DFT libsoxr uses, as a power of two (libsoxr's default 10). The filters are the same;
    /// larger blocks cut the per-block overhead: 60 s 44.1k → 16k and 24k → 16k (HQ) run ~10 % faster
    /// at 12, and no conversion measured (16k → 22.05/24/44.1/48k, 44.1k → 22.05/48k) was slower.
    /// Output differs from the default's by float rounding (max abs 3e-7 on the bench signal).
    static let log2MinimumDFTSize: UInt32 = 12
}
