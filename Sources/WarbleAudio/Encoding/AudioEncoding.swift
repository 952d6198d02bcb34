/// The encodings Warble writes speech in, streamed or whole: the one list shared by `warble say`
/// (its `--format`) and the server (its `response_format`).
public enum AudioEncoding: String, Sendable, CaseIterable {
    /// 16-bit PCM WAV, streamed chunk by chunk (sizes unknown in the header).
    case wav
    /// 16-bit little-endian mono PCM with no header, streamed.
    case pcm16
    case flac
    case oggVorbis
    case oggOpus
    case mp3
    /// 16-bit PCM AIFF (for tools of the Apple world).
    case aiff
    /// AAC-LC in ADTS frames (`.aac`), by an external encoder (WarbleAAC, when linked and registered).
    case aac

    /// Whether bytes go out as each chunk arrives (otherwise libsndfile encodes the whole file at the end).
    public var streams: Bool { self == .wav || self == .pcm16 }

    /// The libsndfile format behind the whole-file encodings.
    public var soundFileFormat: SoundFileFormat? {
        switch self {
        case .wav, .pcm16: nil
        case .flac: .flac16
        case .oggVorbis: .oggVorbis
        case .oggOpus: .oggOpus
        case .mp3: .mp3
        case .aiff: .aiff16
        case .aac: nil
        }
    }

    /// Whether this build can write it (libsndfile may lack an encoder).
    public var isAvailable: Bool {
        if self == .aac { return ExternalAudioEncoders.encoder(for: .aac) != nil }
        return soundFileFormat.map(SoundFile.canWrite) ?? true
    }

    /// The MIME type of the bytes.
    public var mimeType: String {
        switch self {
        case .wav: "audio/wav"
        case .pcm16: "audio/pcm"
        case .flac: "audio/flac"
        case .oggVorbis: "audio/ogg; codecs=vorbis"
        case .oggOpus: "audio/ogg; codecs=opus"
        case .mp3: "audio/mpeg"
        case .aiff: "audio/aiff"
        case .aac: "audio/aac"
        }
    }

    /// The sample rate audio at `inputRate` is written at: the input's own, unless the encoder takes
    /// only some rates (Opus, MP3): then the lowest of those at or above it (the highest if none is).
    public func outputRate(for inputRate: Int) -> Int {
        let allowed = self == .aac ? ExternalAudioEncoders.encoder(for: .aac)?.sampleRates : soundFileFormat?.allowedSampleRates
        guard let allowed, !allowed.contains(inputRate) else { return inputRate }
        return allowed.sorted().first { $0 >= inputRate } ?? allowed.max() ?? inputRate
    }
}
