import WarbleAudio

/// Something that turns speech into text, streaming segments as they are decoded.
public protocol SpeechRecognizer: Sendable {
    /// Transcribes (or translates into English) `audio`, any sample rate and channel count.
    func transcribe(_ audio: AudioBuffer, options: TranscriptionOptions) -> AsyncThrowingStream<TranscriptSegment, any Error>
}

/// How to recognise.
public struct TranscriptionOptions: Sendable, Hashable {
    public enum Task: String, Sendable, Hashable, CaseIterable {
        case transcribe, translate
    }

    /// A language code ("en", "de"), or nil to detect it.
    public var language: String?
    public var task: Task
    /// Beam width; 1 is greedy decoding.
    public var beamSize: Int
    /// Temperatures tried in turn when a window's result fails the thresholds.
    public var temperatures: [Double]
    public var compressionRatioThreshold: Double?
    public var logProbabilityThreshold: Double?
    public var noSpeechThreshold: Double?
    /// Predict timestamps (segment boundaries inside a window).
    public var timestamps: Bool
    /// Condition each window on the previous window's text.
    public var conditionOnPreviousText: Bool
    /// Text to condition the first window on.
    public var initialPrompt: String?
    /// Time every word (`TranscriptSegment.words`), from the model's cross-attention alignment.
    public var wordTimestamps: Bool

    public init(language: String? = nil, task: Task = .transcribe, beamSize: Int = 5,
                temperatures: [Double] = [0, 0.2, 0.4, 0.6, 0.8, 1.0], compressionRatioThreshold: Double? = 2.4,
                logProbabilityThreshold: Double? = -1.0, noSpeechThreshold: Double? = 0.6, timestamps: Bool = true,
                conditionOnPreviousText: Bool = true, initialPrompt: String? = nil, wordTimestamps: Bool = false) {
        self.language = language
        self.task = task
        self.beamSize = beamSize
        self.temperatures = temperatures
        self.compressionRatioThreshold = compressionRatioThreshold
        self.logProbabilityThreshold = logProbabilityThreshold
        self.noSpeechThreshold = noSpeechThreshold
        self.timestamps = timestamps
        self.conditionOnPreviousText = conditionOnPreviousText
        self.initialPrompt = initialPrompt
        self.wordTimestamps = wordTimestamps
    }
}

/// A recognised stretch of speech.
public struct TranscriptSegment: Sendable, Hashable, Codable {
    /// Seconds from the start of the audio.
    public var start: Double
    public var end: Double
    public var text: String
    public var tokens: [Int]
    /// The detected or given language code.
    public var language: String
    public var averageLogProbability: Double
    public var compressionRatio: Double
    public var noSpeechProbability: Double
    public var temperature: Double
    /// The segment's words with their times, when word timestamps were asked for (or the model times
    /// its tokens anyway).
    public var words: [TranscriptWord]?
    /// What else the model says about the segment, by name (SenseVoice: `language`, `emotion`, `event`);
    /// nil for models that say nothing more. An extension of OpenAI's segment object.
    public var tags: [String: String]?

    public init(start: Double, end: Double, text: String, tokens: [Int], language: String,
                averageLogProbability: Double = 0, compressionRatio: Double = 0, noSpeechProbability: Double = 0,
                temperature: Double = 0, words: [TranscriptWord]? = nil, tags: [String: String]? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.tokens = tokens
        self.language = language
        self.averageLogProbability = averageLogProbability
        self.compressionRatio = compressionRatio
        self.noSpeechProbability = noSpeechProbability
        self.temperature = temperature
        self.words = words
        self.tags = tags
    }

    /// OpenAI's names for Whisper's scores, so that every JSON Warble writes uses the same keys.
    enum CodingKeys: String, CodingKey {
        case start, end, text, tokens, language, temperature, words, tags
        case averageLogProbability = "avg_logprob"
        case compressionRatio = "compression_ratio"
        case noSpeechProbability = "no_speech_prob"
    }
}

/// A word of a transcript: its text as the model wrote it (with its leading space and any
/// punctuation that sticks to it), seconds from the start of the audio, and the model's confidence.
public struct TranscriptWord: Sendable, Hashable, Codable {
    public var word: String
    public var start: Double
    public var end: Double
    public var probability: Double

    public init(word: String, start: Double, end: Double, probability: Double) {
        self.word = word
        self.start = start
        self.end = end
        self.probability = probability
    }
}
