/// How samples are stored in a WAV data chunk.
public enum WAVSampleFormat: Sendable, Equatable, CustomStringConvertible {
    /// 8-bit unsigned integer PCM (offset binary, 128 = silence).
    case uint8
    case int16
    /// 24-bit signed integer PCM in 3-byte containers.
    case int24
    case int32
    case float32
    case float64
    /// G.711 µ-law (read only).
    case muLaw
    /// G.711 A-law (read only).
    case aLaw

    /// Bytes per sample in the data chunk.
    public var bytesPerSample: Int {
        switch self {
        case .uint8, .muLaw, .aLaw: 1
        case .int16: 2
        case .int24: 3
        case .int32, .float32: 4
        case .float64: 8
        }
    }

    public var bitsPerSample: Int { bytesPerSample * 8 }

    public var isFloat: Bool { self == .float32 || self == .float64 }

    /// Formats `WAVEncoder` can write.
    public var isEncodable: Bool { self != .muLaw && self != .aLaw }

    public var description: String {
        switch self {
        case .uint8: "8-bit unsigned PCM"
        case .int16: "16-bit PCM"
        case .int24: "24-bit PCM"
        case .int32: "32-bit PCM"
        case .float32: "32-bit float"
        case .float64: "64-bit float"
        case .muLaw: "µ-law"
        case .aLaw: "A-law"
        }
    }
}

/// What a WAV file holds besides its samples.
public struct WAVFile: Sendable, Equatable {
    /// The decoded samples, scaled to [-1, 1) for integer formats.
    public var audio: AudioBuffer
    /// The stored sample format.
    public var sampleFormat: WAVSampleFormat
    /// Valid bits per sample (less than the container size in some WAVE_FORMAT_EXTENSIBLE files).
    public var validBitsPerSample: Int
    /// WAVE_FORMAT_EXTENSIBLE speaker mask, 0 when absent.
    public var channelMask: UInt32
    /// True when the data chunk declared more bytes than the file holds (a cut-off or still-growing file)
    /// and `WAVDecoder.Options.allowTruncation` let it through.
    public var wasTruncated: Bool
}
