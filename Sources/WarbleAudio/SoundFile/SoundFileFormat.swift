import CSndFile

/// Containers and encodings written through libsndfile. Reading detects the format by itself.
public enum SoundFileFormat: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case wav16
    case wav24
    case wavFloat
    case flac16
    case flac24
    case aiff16
    case oggVorbis
    case oggOpus
    case mp3

    public var description: String {
        switch self {
        case .wav16: "WAV 16-bit"
        case .wav24: "WAV 24-bit"
        case .wavFloat: "WAV float"
        case .flac16: "FLAC 16-bit"
        case .flac24: "FLAC 24-bit"
        case .aiff16: "AIFF 16-bit"
        case .oggVorbis: "Ogg Vorbis"
        case .oggOpus: "Ogg Opus"
        case .mp3: "MP3"
        }
    }

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .wav16, .wav24, .wavFloat: "wav"
        case .flac16, .flac24: "flac"
        case .aiff16: "aiff"
        case .oggVorbis: "ogg"
        case .oggOpus: "opus"
        case .mp3: "mp3"
        }
    }

    /// Whether the format loses information (quality settings apply).
    public var isLossy: Bool { self == .oggVorbis || self == .oggOpus || self == .mp3 }

    /// Sample rates the encoder accepts, when it restricts them.
    public var allowedSampleRates: [Int]? {
        switch self {
        case .oggOpus: [8000, 12000, 16000, 24000, 48000]
        case .mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        default: nil
        }
    }

    var libsndfileFormat: Int32 {
        let major: Int32, minor: Int32
        switch self {
        case .wav16: (major, minor) = (Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_PCM_16))
        case .wav24: (major, minor) = (Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_PCM_24))
        case .wavFloat: (major, minor) = (Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_FLOAT))
        case .flac16: (major, minor) = (Int32(SF_FORMAT_FLAC), Int32(SF_FORMAT_PCM_16))
        case .flac24: (major, minor) = (Int32(SF_FORMAT_FLAC), Int32(SF_FORMAT_PCM_24))
        case .aiff16: (major, minor) = (Int32(SF_FORMAT_AIFF), Int32(SF_FORMAT_PCM_16))
        case .oggVorbis: (major, minor) = (Int32(SF_FORMAT_OGG), Int32(SF_FORMAT_VORBIS))
        case .oggOpus: (major, minor) = (Int32(SF_FORMAT_OGG), Int32(SF_FORMAT_OPUS))
        case .mp3: (major, minor) = (Int32(SF_FORMAT_MPEG), Int32(SF_FORMAT_MPEG_LAYER_III))
        }
        return major | minor
    }
}
