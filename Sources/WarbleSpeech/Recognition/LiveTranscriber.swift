import WarbleAudio

/// How live audio is recognised.
public struct LiveRecognitionOptions: Sendable, Hashable {
    /// Recognition of each finished segment (the user's options).
    public var transcription: TranscriptionOptions
    public var segmentation: LiveSegmentationOptions
    /// Partial results of the speech in progress, at most this often (seconds); nil: none.
    public var partialInterval: Double?

    public init(transcription: TranscriptionOptions = .init(), segmentation: LiveSegmentationOptions = .init(),
                partialInterval: Double? = 1) {
        self.transcription = transcription
        self.segmentation = segmentation
        self.partialInterval = partialInterval
    }

    /// Partials are decoded greedily at temperature 0, without word times: fast, and replaced by the final.
    var partialTranscription: TranscriptionOptions {
        var options = transcription
        options.beamSize = 1
        options.temperatures = [0]
        options.wordTimestamps = false
        return options
    }
}

/// What live recognition reports, in order.
public enum LiveTranscriptEvent: Sendable, Equatable {
    /// The text so far of the speech in progress (replaced by the next partial or by the utterance).
    case partial(LivePartial)
    /// A finished stretch of speech, recognised with the user's options.
    case utterance(LiveUtterance)
}

public struct LivePartial: Sendable, Equatable {
    /// Seconds from the start of the input.
    public var start: Double
    public var end: Double
    public var text: String
}

public struct LiveUtterance: Sendable, Equatable {
    /// Seconds from the start of the input.
    public var start: Double
    public var end: Double
    /// The recognised segments, their times (and word times) from the start of the input; may be empty
    /// when the recogniser heard no words.
    public var segments: [TranscriptSegment]
    /// The speech itself (mono, at the detector's rate, with padding).
    public var audio: AudioBuffer

    /// The segments' text, trimmed.
    public var text: String { TranscriptRendering.text(segments) }
}

/// Live recognition: audio chunks in as they are captured, partial and final results out as soon as
/// they are ready. Silero VAD cuts the input into speech segments (`StreamingSpeechSegmenter`); each
/// finished segment is recognised with the user's options, and while speech goes on, its audio so far is
/// recognised greedily for a partial result at most every `partialInterval` seconds, only when no
/// finished segment waits (never more than one partial at a time).
///
/// When the audio stream ends (capture stopped, Ctrl-C), the speech in progress is recognised as a
/// last utterance and the events end. Cancelling the consuming task stops everything.
public struct LiveTranscriber: Sendable {
    public let recognizer: any SpeechRecognizer
    public let detector: any VoiceActivityDetector
    public let options: LiveRecognitionOptions

    public init(recognizer: any SpeechRecognizer, detector: any VoiceActivityDetector, options: LiveRecognitionOptions = .init()) {
        self.recognizer = recognizer
        self.detector = detector
        self.options = options
    }

    /// Events for `audio`: mono chunks at the detector's rate (16 kHz for Silero), any sizes, in order.
    public func events(from audio: AsyncThrowingStream<[Float], any Error>) -> AsyncThrowingStream<LiveTranscriptEvent, any Error> {
        let (recognizer, detector, options) = (recognizer, detector, options)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let schedule = LiveSchedule(segmenter: try StreamingSpeechSegmenter(detector: detector, options: options.segmentation),
                                                partialInterval: options.partialInterval)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            do {
                                for try await chunk in audio { try await schedule.feed(chunk) }
                                try await schedule.finish()
                            } catch {
                                await schedule.fail(error)
                                throw error
                            }
                        }
                        group.addTask {
                            while let job = try await schedule.nextJob() {
                                let event = try await Self.recognize(job, recognizer: recognizer, options: options)
                                if let event { continuation.yield(event) }
                            }
                        }
                        try await group.waitForAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func recognize(_ job: LiveSchedule.Job, recognizer: any SpeechRecognizer,
                          options: LiveRecognitionOptions) async throws -> LiveTranscriptEvent? {
        let (segment, partial) = switch job {
        case .final(let segment): (segment, false)
        case .partial(let segment): (segment, true)
        }
        let audio = AudioBuffer(mono: segment.samples, sampleRate: segment.sampleRate)
        var recognised: [TranscriptSegment] = []
        for try await piece in recognizer.transcribe(audio, options: partial ? options.partialTranscription : options.transcription) {
            recognised.append(piece.shifted(by: segment.start))
        }
        try Task.checkCancellation()
        if partial {
            let text = TranscriptRendering.text(recognised)
            return text.isEmpty ? nil : .partial(LivePartial(start: segment.start, end: segment.end, text: text))
        }
        return .utterance(LiveUtterance(start: segment.start, end: segment.end, segments: recognised, audio: audio))
    }
}

extension TranscriptSegment {
    /// The segment `seconds` later (words too).
    func shifted(by seconds: Double) -> TranscriptSegment {
        var segment = self
        segment.start += seconds
        segment.end += seconds
        segment.words = words?.map { word in
            var word = word
            word.start += seconds
            word.end += seconds
            return word
        }
        return segment
    }
}

/// The segmenter and the work waiting for the recogniser, between the task that feeds audio and the
/// task that recognises. Finished segments come first; a partial is made only when the recogniser asks
/// for work and none waits.
actor LiveSchedule {
    enum Job: Sendable {
        case final(LiveSpeechSegment)
        case partial(LiveSpeechSegment)
    }

    let segmenter: StreamingSpeechSegmenter
    let partialInterval: Duration?
    var finals: [LiveSpeechSegment] = []
    var finished = false
    var failure: (any Error)?
    var waiter: CheckedContinuation<Void, Never>?
    var lastPartial: ContinuousClock.Instant?
    /// Input sample up to which the last partial was taken (a partial needs new audio).
    var lastPartialEnd = 0

    init(segmenter: StreamingSpeechSegmenter, partialInterval: Double?) {
        self.segmenter = segmenter
        self.partialInterval = partialInterval.map { .milliseconds(Int($0 * 1000)) }
    }

    func feed(_ chunk: [Float]) throws {
        finals += try segmenter.append(chunk)
        wake()
    }

    func finish() throws {
        finals += try segmenter.finish()
        finished = true
        wake()
    }

    func fail(_ error: any Error) {
        failure = error
        wake()
    }

    func wake() {
        waiter?.resume()
        waiter = nil
    }

    /// The next work for the recogniser; nil when the input has ended and every segment was handed out.
    func nextJob() async throws -> Job? {
        while true {
            if let failure { throw failure }
            if !finals.isEmpty { return .final(finals.removeFirst()) }
            if finished { return nil }
            if let interval = partialInterval, segmenter.isInSpeech, segmenter.receivedSamples > lastPartialEnd,
               lastPartial.map({ ContinuousClock.now - $0 >= interval }) ?? true,
               let speech = segmenter.speechInProgress(), speech.samples.count >= segmenter.sampleRate * 7 / 10 {
                lastPartial = .now
                lastPartialEnd = speech.endSample
                return .partial(speech)
            }
            try Task.checkCancellation()
            await withCheckedContinuation { waiter = $0 }
        }
    }
}
