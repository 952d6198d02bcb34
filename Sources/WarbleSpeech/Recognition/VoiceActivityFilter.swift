import WarbleAudio

/// Any recognizer behind a voice activity detector (Silero VAD): only the speech stretches (padded) go to the recognizer, joined
/// end to end, and segment times are mapped back to the original audio (faster-whisper's
/// `vad_filter`). No speech at all gives no segments.
public struct VoiceActivityFilter<Recognizer: SpeechRecognizer>: SpeechRecognizer {
    public let recognizer: Recognizer
    public let vad: any VoiceActivityDetector
    public var detection: SpeechDetectionOptions

    public init(recognizer: Recognizer, vad: any VoiceActivityDetector, detection: SpeechDetectionOptions = .init()) {
        self.recognizer = recognizer
        self.vad = vad
        self.detection = detection
    }

    public func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error> {
        let (vad, detection, recognizer) = (vad, detection, recognizer)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // Silero VAD's runs are blocking work; the recognizer's stream runs its own off the pool.
                    let found = try await BlockingWork.run(cancel: CancellationToken()) { cancel -> (speech: [Float], map: SpeechTimeMap)? in
                        let samples = try RecognitionAudio.monoSamples(audio, sampleRate: vad.sampleRate)
                        let probabilities = try vad.probabilities(samples, padLast: true, cancel: cancel)
                        let ranges = SpeechDetection.ranges(probabilities: probabilities, sampleCount: samples.count,
                                                            options: detection, window: vad.window, sampleRate: vad.sampleRate)
                        guard !ranges.isEmpty else { return nil }
                        var speech: [Float] = []
                        for range in ranges { speech += samples[range.start..<range.end] }
                        return (speech, SpeechTimeMap(ranges: ranges, sampleRate: vad.sampleRate))
                    }
                    guard let found else { return continuation.finish() }
                    let inner = recognizer.transcribe(AudioBuffer(mono: found.speech, sampleRate: vad.sampleRate),
                                                      options: options)
                    for try await segment in inner {
                        continuation.yield(found.map.original(segment))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Maps times in speech-only audio (the ranges joined end to end) back to the original audio.
struct SpeechTimeMap {
    let ranges: [SpeechRange]
    let sampleRate: Int
    /// End of each range in the joined audio.
    let joinedEnds: [Int]

    init(ranges: [SpeechRange], sampleRate: Int) {
        self.ranges = ranges
        self.sampleRate = sampleRate
        var total = 0
        joinedEnds = ranges.map { total += $0.end - $0.start; return total }
    }

    /// The range holding the time (an end exactly on a boundary stays in the earlier range).
    func rangeIndex(_ seconds: Double, isEnd: Bool = false) -> Int {
        let sample = Int((seconds * Double(sampleRate)).rounded())
        return max(0, joinedEnds.firstIndex { isEnd ? sample <= $0 : sample < $0 } ?? (ranges.count - 1))
    }

    /// `seconds` in the joined audio as a time in the original, counted in range `index` (its own by default).
    func originalTime(_ seconds: Double, isEnd: Bool = false, in index: Int? = nil) -> Double {
        let index = index ?? rangeIndex(seconds, isEnd: isEnd)
        let sample = Int((seconds * Double(sampleRate)).rounded())
        let joinedStart = index == 0 ? 0 : joinedEnds[index - 1]
        return Double(ranges[index].start + sample - joinedStart) / Double(sampleRate)
    }

    /// The segment in original times. A word keeps both ends in the range of its middle (a word is
    /// never split over a cut silence), and a segment with words spans its words, as faster-whisper's
    /// `restore_speech_timestamps` does.
    func original(_ segment: TranscriptSegment) -> TranscriptSegment {
        var segment = segment
        guard let words = segment.words, !words.isEmpty else {
            segment.start = originalTime(segment.start)
            segment.end = originalTime(segment.end, isEnd: true)
            return segment
        }
        segment.words = words.map { word in
            var word = word
            let index = rangeIndex((word.start + word.end) / 2)
            word.start = originalTime(word.start, in: index)
            word.end = originalTime(word.end, in: index)
            return word
        }
        segment.start = segment.words!.first!.start
        segment.end = segment.words!.last!.end
        return segment
    }
}
