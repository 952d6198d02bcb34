/// Speech stretches found by a voice activity detector, as faster-whisper's `get_speech_timestamps`
/// finds them from Silero probabilities (same defaults).
public struct SpeechDetectionOptions: Sendable, Hashable {
    /// Probabilities at or above this start (or continue) speech.
    public var threshold: Double = 0.5
    /// Below this, speech ends (default: threshold − 0.15, at least 0.01).
    public var negativeThreshold: Double? = nil
    /// Shorter speech is dropped.
    public var minSpeechDuration: Double = 0
    /// Longer speech is split (at the last silence of ≥ 98 ms when there is one).
    public var maxSpeechDuration: Double = .infinity
    /// Silence shorter than this does not end speech.
    public var minSilenceDuration: Double = 2.0
    /// Padding added on both sides of each stretch.
    public var speechPad: Double = 0.4

    public init() {}
}

/// A stretch of speech in samples.
public struct SpeechRange: Sendable, Hashable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

public enum SpeechDetection {
    /// Speech ranges (in samples at `sampleRate`) from per-window probabilities.
    public static func ranges(probabilities: [Float], sampleCount: Int, options: SpeechDetectionOptions = .init(),
                              window: Int = 512, sampleRate: Int = 16000) -> [SpeechRange] {
        let rate = Double(sampleRate)
        let minSpeech = rate * options.minSpeechDuration
        let pad = Int(rate * options.speechPad)
        let maxSpeech = rate * options.maxSpeechDuration - Double(window) - 2 * Double(pad)
        let minSilence = rate * options.minSilenceDuration
        let minSilenceAtMax = rate * 98 / 1000
        let negative = options.negativeThreshold ?? max(options.threshold - 0.15, 0.01)
        var triggered = false
        var speeches: [SpeechRange] = []
        var currentStart: Int?
        var tempEnd = 0, previousEnd = 0, nextStart = 0
        for (i, p) in probabilities.enumerated() {
            let probability = Double(p)
            let position = window * i
            if probability >= options.threshold, tempEnd != 0 {
                tempEnd = 0
                if nextStart < previousEnd { nextStart = position }
            }
            if probability >= options.threshold, !triggered {
                triggered = true
                currentStart = position
                continue
            }
            if triggered, let start = currentStart, Double(position - start) > maxSpeech {
                if previousEnd != 0 {
                    speeches.append(SpeechRange(start: start, end: previousEnd))
                    currentStart = nil
                    if nextStart < previousEnd { triggered = false } else { currentStart = nextStart }
                    previousEnd = 0; nextStart = 0; tempEnd = 0
                } else {
                    speeches.append(SpeechRange(start: start, end: position))
                    currentStart = nil
                    previousEnd = 0; nextStart = 0; tempEnd = 0
                    triggered = false
                    continue
                }
            }
            if probability < negative, triggered {
                if tempEnd == 0 { tempEnd = position }
                if Double(position - tempEnd) > minSilenceAtMax { previousEnd = tempEnd }
                if Double(position - tempEnd) < minSilence { continue }
                if let start = currentStart, Double(tempEnd - start) > minSpeech {
                    speeches.append(SpeechRange(start: start, end: tempEnd))
                }
                currentStart = nil
                previousEnd = 0; nextStart = 0; tempEnd = 0
                triggered = false
                continue
            }
        }
        if let start = currentStart, Double(sampleCount - start) > minSpeech {
            speeches.append(SpeechRange(start: start, end: sampleCount))
        }
        for i in speeches.indices {
            if i == 0 { speeches[i].start = max(0, speeches[i].start - pad) }
            if i != speeches.count - 1 {
                let silence = speeches[i + 1].start - speeches[i].end
                if silence < 2 * pad {
                    speeches[i].end += silence / 2
                    speeches[i + 1].start = max(0, speeches[i + 1].start - silence / 2)
                } else {
                    speeches[i].end = min(sampleCount, speeches[i].end + pad)
                    speeches[i + 1].start = max(0, speeches[i + 1].start - pad)
                }
            } else {
                speeches[i].end = min(sampleCount, speeches[i].end + pad)
            }
        }
        return speeches
    }
}
