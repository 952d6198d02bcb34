import WarbleAudio

/// Something that turns text or SSML into speech, streamed as it is produced.
public protocol SpeechSynthesizer: Sendable {
    /// The voices it offers.
    var voices: [VoiceDescription] { get }
    /// The sample rate of every chunk it produces.
    var sampleRate: Int { get }
    /// Synthesises `request`; the first chunk is yielded as soon as it is ready. Cancelling the
    /// consuming task stops the work.
    func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error>
}

/// A voice a synthesizer offers.
public struct VoiceDescription: Sendable, Hashable, Codable {
    /// Unique across the installed models (e.g. "en_US-joe-medium", "kokoro:jm_kumo").
    public var id: String
    public var displayName: String
    /// BCP 47 language, e.g. "en-US".
    public var language: String
    /// The model id that speaks it.
    public var model: String
    public var sampleRate: Int
    public var gender: String?

    public init(id: String, displayName: String, language: String, model: String, sampleRate: Int, gender: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.language = language
        self.model = model
        self.sampleRate = sampleRate
        self.gender = gender
    }
}

/// What to say and how.
public struct SynthesisRequest: Sendable, Hashable {
    /// Plain text, or SSML when `isSSML`.
    public var text: String
    public var isSSML: Bool
    /// A voice id; nil for the synthesizer's default.
    public var voice: String?
    /// Speaking-rate factor (1 = the voice's normal rate).
    public var rate: Double
    /// Pitch factor (1 = unchanged); honoured only where the model can (see the pipeline's docs).
    public var pitch: Double
    /// Amplitude factor (1 = unchanged).
    public var volume: Double
    /// Silence between sentences, in seconds.
    public var sentencePause: Double
    /// The longest audio this request may produce, in seconds (nil: no limit beyond the text's own
    /// length). Explicit breaks beyond it are refused before any audio; audio that grows past it ends
    /// the stream with an error.
    public var maximumDuration: Double?
    /// Speaker and sampling scales of models that have them (Piper); a model without them refuses any.
    public var controls: VoiceControls
    /// The text's language (BCP 47, e.g. "pt-BR"), for a voice that can speak more than its own (a
    /// Kokoro voice phonemises it with espeak-ng's voice for that language; see
    /// `UtteranceRenderer.speaks(_:)`). Nil: the voice's own language. SSML's `xml:lang` overrides it.
    public var language: String?

    public init(text: String, isSSML: Bool = false, voice: String? = nil, rate: Double = 1, pitch: Double = 1,
                volume: Double = 1, sentencePause: Double = 0.25, maximumDuration: Double? = nil,
                controls: VoiceControls = .init(), language: String? = nil) {
        self.controls = controls
        self.language = language
        self.text = text
        self.isSSML = isSSML
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.sentencePause = sentencePause
        self.maximumDuration = maximumDuration
    }
}

/// A piece of synthesised audio with the events that fall inside it.
public struct AudioChunk: Sendable, Equatable {
    /// Mono samples in [-1, 1].
    public var samples: [Float]
    public var sampleRate: Int
    /// Events at sample offsets relative to the start of this chunk.
    public var events: [SpeechEvent]
    /// On a request's first chunk, when the synthesizer knows it: the frames the whole request will
    /// produce (this chunk's included), so that a WAV header can carry exact sizes. Nil when unknown.
    public var requestFrames: Int?

    public init(samples: [Float], sampleRate: Int, events: [SpeechEvent] = [], requestFrames: Int? = nil) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.events = events
        self.requestFrames = requestFrames
    }

    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}

/// Something that happens at a point in the audio.
public enum SpeechEvent: Sendable, Equatable {
    /// An SSML `<mark name>`.
    case mark(name: String, sampleOffset: Int)
    /// A word starts. `sourceRange` is in UTF-8 bytes of the request text. `estimated` is false when
    /// the offset is exact (a chunk edge) and true when it was interpolated inside a chunk.
    case word(sourceRange: Range<Int>, sampleOffset: Int, estimated: Bool)
    /// A sentence (chunk) starts; `sourceRange` in UTF-8 bytes of the request text.
    case sentence(sourceRange: Range<Int>, sampleOffset: Int)

    public var sampleOffset: Int {
        switch self {
        case .mark(_, let offset), .word(_, let offset, _), .sentence(_, let offset): offset
        }
    }

    /// The same event moved by `delta` samples.
    public func shifted(by delta: Int) -> SpeechEvent {
        switch self {
        case .mark(let name, let offset): .mark(name: name, sampleOffset: offset + delta)
        case .word(let range, let offset, let estimated): .word(sourceRange: range, sampleOffset: offset + delta, estimated: estimated)
        case .sentence(let range, let offset): .sentence(sourceRange: range, sampleOffset: offset + delta)
        }
    }
}
