/// Relative prosody: 1 is the voice's default. Nested SSML `<prosody>` elements multiply.
public struct Prosody: Sendable, Hashable {
    /// Speaking-rate factor (2 is twice as fast).
    public var rate: Double
    /// Pitch factor (2 is an octave up).
    public var pitch: Double
    /// Amplitude factor (0 is silent, 2 is about +6 dB).
    public var volume: Double

    public static let neutral = Prosody(rate: 1, pitch: 1, volume: 1)

    /// Each factor moved into `SpeechLimits`' range (nested elements multiply, so a deep nest of
    /// `x-slow` would otherwise reach 0 and one of `x-loud` infinity).
    public var bounded: Prosody {
        Prosody(rate: SpeechLimits.clamp(rate, SpeechLimits.rate), pitch: SpeechLimits.clamp(pitch, SpeechLimits.pitch),
                volume: SpeechLimits.clamp(volume, SpeechLimits.volume))
    }

    public init(rate: Double = 1, pitch: Double = 1, volume: Double = 1) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

/// How a piece of text is to be read (SSML `<say-as interpret-as>`); the normalizer expands it.
public struct SayAs: Sendable, Hashable {
    public enum Interpretation: String, Sendable, CaseIterable {
        case cardinal, ordinal, characters, digits, date, time, telephone
        /// `spell-out` is read like `characters`.
        case spellOut = "spell-out"
    }

    public var interpretation: Interpretation
    /// The `format` attribute (for dates: `mdy`, `dmy`, `ymd`, `md`, `dm`, `ym`, `my`, `y`, `m`, `d`).
    public var format: String?

    public init(_ interpretation: Interpretation, format: String? = nil) {
        self.interpretation = interpretation
        self.format = format
    }
}

/// Emphasis level of SSML `<emphasis>`; it is also folded into the segment's prosody.
public enum Emphasis: String, Sendable, Hashable {
    case strong, moderate, none, reduced
}

/// One piece of what to say, with everything a synthesis pipeline needs to say it.
public struct SpeechSegment: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        /// Text to normalize and phonemize (or tokenize).
        case text(String)
        /// Phonemes given by the author (`<phoneme alphabet="ipa" ph="...">`), used as they are.
        case phonemes(String)
        /// Silence, in seconds (`<break>`).
        case pause(Double)
        /// A named position to report when playback reaches it (`<mark name>`).
        case mark(String)
    }

    public var content: Content
    /// BCP 47 language from `xml:lang` or `<lang>`, nil for the voice's default.
    public var language: String?
    /// Voice name from `<voice name>`, nil for the caller's default.
    public var voice: String?
    public var prosody: Prosody
    public var emphasis: Emphasis?
    public var sayAs: SayAs?
    /// Where the segment came from: UTF-8 byte offsets into the input string.
    public var sourceRange: Range<Int>

    public init(
        _ content: Content, language: String? = nil, voice: String? = nil, prosody: Prosody = .neutral,
        emphasis: Emphasis? = nil, sayAs: SayAs? = nil, sourceRange: Range<Int>
    ) {
        self.content = content
        self.language = language
        self.voice = voice
        self.prosody = prosody
        self.emphasis = emphasis
        self.sayAs = sayAs
        self.sourceRange = sourceRange
    }

    /// The text of a `.text` segment, nil otherwise.
    public var text: String? {
        if case .text(let text) = content { return text }
        return nil
    }
}
