import Dispatch

/// A long whole-buffer conversion cut into segments that run on separate threads, each with its own
/// libsoxr object, then joined so the result equals one conversion up to float rounding.
///
/// Why it is exact: with integer rates the conversion repeats every `period` input frames
/// (inputRate / gcd) and `period · out / in` output frames, so a segment that starts on a period
/// boundary sees the same filter phases as one long run. Each segment also reads `warmUp` frames
/// (whole periods) before its start and after its end, so the filters are full where its output is
/// kept; the warm-up output is dropped. Measured against one run: max abs difference 2.7e-7.
struct ResamplingSegments: Equatable {
    struct Segment: Equatable {
        /// Input frames this segment's libsoxr object reads (warm-up included).
        let input: Range<Int>
        /// Output frames produced from the warm-up before the kept part, dropped.
        let skip: Int
        /// Where the kept output goes in the whole result.
        let output: Range<Int>
    }

    let segments: [Segment]

    /// Warm-up on each side, in frames of the lower of the two rates. Measured: 800 (50 ms of
    /// 44.1 kHz input) already gave one run's output for HQ 44.1k → 16k; 4,000 leaves room for VHQ's
    /// longer filters (tested: 48k → 8k and 16k → 22.05k VHQ, within 1e-6).
    static let warmUpLowRateFrames = 4000
    /// Segments are at least this many seconds of input, so warm-up and thread start stay small.
    static let minimumSegmentSeconds = 2

    /// Segments for `frames` input frames into `outputFrames` output frames, at most `parts` of them;
    /// one segment (no splitting) when the input is too short.
    init(inputRate: Int, outputRate: Int, frames: Int, outputFrames: Int, parts: Int) {
        let common = Self.gcd(inputRate, outputRate)
        let period = inputRate / common, outputPeriod = outputRate / common
        let lowRate = min(inputRate, outputRate)
        let warmUpFrames = (Self.warmUpLowRateFrames * inputRate + lowRate - 1) / lowRate
        let warmUp = (warmUpFrames + period - 1) / period * period
        let minimum = max(Self.minimumSegmentSeconds * inputRate, 8 * warmUp)
        let count = max(1, min(parts, frames / max(minimum, 1)))
        // Boundaries in input frames, on whole periods; the last is the end of input.
        var starts = (0..<count).map { k in k * (frames / count) / period * period }
        starts.append(frames)
        let outputStarts = starts.dropLast().map { $0 / period * outputPeriod } + [outputFrames]
        segments = (0..<count).map { k in
            let begin = max(0, starts[k] - warmUp)
            let end = k == count - 1 ? frames : min(frames, starts[k + 1] + warmUp)
            return Segment(
                input: begin..<end, skip: (starts[k] - begin) / period * outputPeriod,
                output: outputStarts[k]..<max(outputStarts[k], outputStarts[k + 1]))
        }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

extension Resampler {
    /// `buffer` converted in `plan`'s segments, concurrently (one libsoxr object and one thread each),
    /// straight into one result of `frames` frames.
    func convertSegments(_ buffer: AudioBuffer, plan: ResamplingSegments, frames: Int) throws(ResamplerError) -> AudioBuffer {
        let segments = plan.segments
        let (inputRate, outputRate, quality, channelCount) = (buffer.sampleRate, outputRate, quality, buffer.channelCount)
        let channels = try StreamingResampler.withChannelPointers(buffer.channels) { inputs throws(ResamplerError) in
            try StreamingResampler.channelArrays(count: channelCount, capacity: frames) { outputs throws(ResamplerError) in
                let shared = SegmentPointers(inputs: inputs, outputs: outputs)
                let failures = SegmentFailures(count: segments.count)
                defer { failures.release() }
                DispatchQueue.concurrentPerform(iterations: segments.count) { index in
                    let segment = segments[index]
                    do throws(ResamplerError) {
                        let resampler = try StreamingResampler(
                            inputRate: inputRate, outputRate: outputRate, channelCount: channelCount, quality: quality)
                        try resampler.convertFlushing(
                            shared.inputs.map { $0 + segment.input.lowerBound }, frames: segment.input.count,
                            skip: segment.skip, into: shared.outputs.map { $0 + segment.output.lowerBound },
                            count: segment.output.count)
                    } catch {
                        failures.record(error, at: index)
                    }
                }
                if let failure = failures.first { throw failure }
                return frames
            }
        }
        do { return try AudioBuffer(channels: channels, sampleRate: outputRate) } catch {
            throw .soxr("internal: \(error)")
        }
    }
}

/// The planar pointers every segment reads and writes (disjoint output ranges), shared across threads.
private struct SegmentPointers: @unchecked Sendable {
    let inputs: [UnsafePointer<Float>]
    let outputs: [UnsafeMutablePointer<Float>]
}

/// One error slot per segment; each thread writes only its own slot.
private final class SegmentFailures: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<ResamplerError?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    func record(_ error: ResamplerError, at index: Int) { slots[index] = error }

    var first: ResamplerError? { slots.lazy.compactMap { $0 }.first }

    func release() {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}
