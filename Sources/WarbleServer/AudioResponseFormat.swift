import WarbleAudio

/// The `response_format`s OpenAI defines.
enum AudioResponseFormat: String, CaseIterable, Sendable {
    case wav, mp3, opus, flac, pcm

    /// OpenAI's `pcm`: 24 kHz, 16-bit little-endian, mono, no header.
    static let pcmSampleRate = 24_000

    var contentType: String {
        switch self {
        case .wav: "audio/wav"
        case .mp3: "audio/mpeg"
        case .opus: "audio/ogg; codecs=opus"
        case .flac: "audio/flac"
        case .pcm: "audio/pcm"
        }
    }

    /// Whether bytes go out as each chunk is synthesised (otherwise the file is encoded at the end).
    var streams: Bool { self == .wav || self == .pcm }

    /// The libsndfile format behind the whole-file encodings.
    var soundFileFormat: SoundFileFormat? {
        switch self {
        case .mp3: .mp3
        case .opus: .oggOpus
        case .flac: .flac16
        case .wav, .pcm: nil
        }
    }

    /// Whether this server can produce it (libsndfile may lack an encoder).
    var isAvailable: Bool { soundFileFormat.map(SoundFile.canWrite) ?? true }
}
