/// How live audio is cut into speech segments.
public struct LiveSegmentationOptions: Sendable, Hashable {
    /// Probabilities at or above this start (or continue) speech.
    public var threshold: Double = 0.5
    /// Below this, silence begins (default: threshold − 0.15, at least 0.01).
    public var negativeThreshold: Double? = nil
    /// Speech ends after this much silence (seconds).
    public var minSilenceDuration: Double = 0.5
    /// Shorter speech (seconds, before padding) is dropped as a click.
    public var minSpeechDuration: Double = 0.25
    /// Longer speech is split (at its last pause of ≥ 98 ms when there is one), so that a segment is
    /// recognised within a bounded delay and memory stays bounded.
    public var maxSpeechDuration: Double = 20
    /// Audio kept on both sides of the speech (seconds; at most `minSilenceDuration`).
    public var speechPad: Double = 0.3

    public init() {}
}

/// A stretch of speech cut from live audio: its samples and where they start in the input.
public struct LiveSpeechSegment: Sendable, Equatable {
    /// Index in the input (counted from its first sample) of the first sample.
    public var startSample: Int
    public var samples: [Float]
    public var sampleRate: Int

    public init(startSample: Int, samples: [Float], sampleRate: Int) {
        self.startSample = startSample
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var endSample: Int { startSample + samples.count }
    /// Seconds from the start of the input.
    public var start: Double { Double(startSample) / Double(sampleRate) }
    public var end: Double { Double(endSample) / Double(sampleRate) }
}

/// Cuts live audio into speech segments as it arrives: a voice activity detector (Silero) reads each
/// window once, keeping its state over the whole input, and a segment is given out as soon as its
/// speech has ended (`minSilenceDuration` of silence) or has reached `maxSpeechDuration`.
///
/// The segments depend only on the samples, not on how they were cut into chunks. Memory is bounded:
/// outside speech only the padding is kept, inside speech at most `maxSpeechDuration` plus padding.
/// Not `Sendable`: one segmenter belongs to one task.
public final class StreamingSpeechSegmenter {
    public let options: LiveSegmentationOptions
    public let sampleRate: Int
    let window: Int
    let stream: any VoiceActivityStream
    let pad: Int, minSilence: Int, minSpeech: Int, maxSpeech: Int
    let threshold: Float, negativeThreshold: Float
    /// 98 ms: a pause at least this long is a place to split over-long speech.
    let minSplitPause: Int

    /// The audio kept: `buffer[0]` is input sample `bufferStart`.
    var buffer: [Float] = []
    var bufferStart = 0
    /// Input samples read by the detector so far (a multiple of the window).
    var detected = 0
    /// Start of the speech in progress, when there is one.
    var speechStart: Int?
    /// Where the current silence inside speech began.
    var silenceStart: Int?
    /// The last pause of ≥ 98 ms inside the speech in progress (its start and where speech resumed).
    var lastPause: (start: Int, resumed: Int?)?

    public init(detector: any VoiceActivityDetector, options: LiveSegmentationOptions = .init()) throws {
        self.options = options
        sampleRate = detector.sampleRate
        window = detector.window
        stream = try detector.makeStream()
        let rate = Double(detector.sampleRate)
        minSilence = max(1, Int(rate * options.minSilenceDuration))
        pad = min(Int(rate * options.speechPad), minSilence)
        minSpeech = Int(rate * options.minSpeechDuration)
        maxSpeech = max(window * 2, Int(rate * options.maxSpeechDuration))
        minSplitPause = Int(rate * 0.098)
        threshold = Float(options.threshold)
        negativeThreshold = Float(options.negativeThreshold ?? max(options.threshold - 0.15, 0.01))
    }

    /// Input samples received so far.
    public var receivedSamples: Int { bufferStart + buffer.count }
    /// Samples held in memory (bounded; see the type's description).
    public var bufferedSamples: Int { buffer.count }
    /// Whether speech is in progress (begun and not yet ended).
    public var isInSpeech: Bool { speechStart != nil }

    /// Feeds the next samples of the input (at the detector's rate, mono); returns the segments whose
    /// speech ended in them, in order.
    public func append(_ samples: some Collection<Float>) throws -> [LiveSpeechSegment] {
        buffer.append(contentsOf: samples)
        var segments: [LiveSpeechSegment] = []
        while receivedSamples - detected >= window {
            let offset = detected - bufferStart
            let probability = try stream.probability(buffer[offset..<(offset + window)])
            detected += window
            if let segment = step(probability, at: detected - window) { segments.append(segment) }
            trim()
        }
        return segments
    }

    /// Ends the input: the speech in progress, if any (a last partial window is read zero-padded).
    public func finish() throws -> [LiveSpeechSegment] {
        var segments: [LiveSpeechSegment] = []
        let rest = receivedSamples - detected
        if rest > 0 {
            let offset = detected - bufferStart
            let padded = Array(buffer[offset...]) + [Float](repeating: 0, count: window - rest)
            if let segment = step(try stream.probability(padded[...]), at: detected) { segments.append(segment) }
            detected += rest
        }
        if let start = speechStart {
            let end = silenceStart.map { min(receivedSamples, $0 + pad) } ?? receivedSamples
            if (silenceStart ?? receivedSamples) - start > minSpeech { segments.append(cut(from: start - pad, to: end)) }
            speechStart = nil
            silenceStart = nil
            lastPause = nil
        }
        trim()
        return segments
    }

    /// The speech in progress so far (with its leading padding), for a partial result; nil outside speech.
    public func speechInProgress() -> LiveSpeechSegment? {
        guard let start = speechStart else { return nil }
        return cut(from: start - pad, to: receivedSamples)
    }

    /// One window's probability, the window starting at input sample `position`.
    func step(_ probability: Float, at position: Int) -> LiveSpeechSegment? {
        let end = position + window
        guard let start = speechStart else {
            if probability >= threshold { speechStart = position }
            return nil
        }
        if probability >= threshold, let silence = silenceStart {
            if position - silence >= minSplitPause { lastPause = (silence, position) }
            silenceStart = nil
        }
        if probability < negativeThreshold, silenceStart == nil { silenceStart = position }
        if let silence = silenceStart, end - silence >= minSilence {
            speechStart = nil
            silenceStart = nil
            lastPause = nil
            guard silence - start > minSpeech else { return nil }
            return cut(from: start - pad, to: silence + pad)
        }
        if end - start >= maxSpeech {
            // Split at the last pause (its middle), else here; the speech goes on in a new segment.
            if let pause = lastPause, let resumed = pause.resumed, pause.start > start {
                let middle = (pause.start + resumed) / 2
                let segment = cut(from: start - pad, to: min(middle, pause.start + pad))
                speechStart = max(middle, resumed - pad) + pad
                lastPause = nil
                return segment
            }
            let segment = cut(from: start - pad, to: end)
            speechStart = end + pad  // the next segment's padding starts here
            silenceStart = nil
            lastPause = nil
            return segment
        }
        return nil
    }

    /// Input samples `from..<to`, clamped to what is held.
    func cut(from: Int, to: Int) -> LiveSpeechSegment {
        let lower = max(from, bufferStart), upper = max(lower, min(to, receivedSamples))
        return LiveSpeechSegment(startSample: lower, samples: Array(buffer[(lower - bufferStart)..<(upper - bufferStart)]),
                                 sampleRate: sampleRate)
    }

    /// Drops audio no segment can need: outside speech, all but the padding before the next window.
    func trim() {
        let keepFrom = (speechStart.map { $0 - pad }) ?? (detected - pad)
        let drop = min(keepFrom - bufferStart, detected - bufferStart)
        guard drop > 0, drop >= window * 8 || buffer.count > maxSpeech else { return }
        buffer.removeFirst(drop)
        bufferStart += drop
    }
}
