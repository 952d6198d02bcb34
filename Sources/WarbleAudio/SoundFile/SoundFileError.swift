/// Reading or writing through libsndfile failed. Messages carry libsndfile's own words.
public enum SoundFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libsndfile could not open or recognise the input.
    case cannotOpen(path: String, reason: String)
    /// This libsndfile build cannot write the format (e.g. built without LAME for MP3).
    case formatUnavailable(SoundFileFormat, libsndfile: String)
    /// The encoder does not take this sample rate.
    case unsupportedSampleRate(Int, format: SoundFileFormat, accepted: [Int])
    case unsupportedChannelCount(Int, format: SoundFileFormat)
    case readFailed(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    /// The file declares a sample rate outside what is accepted (`DecodeLimits.sampleRates`).
    case unsupportedFileSampleRate(path: String, rate: Int, accepted: ClosedRange<Int>)
    /// The file declares more channels than accepted.
    case tooManyChannels(path: String, channels: Int, maximum: Int)
    /// The audio is longer than accepted; `seconds` is its declared length when the header states it.
    case tooLong(path: String, seconds: Double?, maximumSeconds: Double)

    /// Whether the file was refused for one of `DecodeLimits`' bounds (it may be valid audio otherwise).
    public var isLimit: Bool {
        switch self {
        case .unsupportedFileSampleRate, .tooManyChannels, .tooLong: true
        default: false
        }
    }

    /// Whether the audio is longer than accepted.
    public var isTooLong: Bool {
        if case .tooLong = self { return true }
        return false
    }

    private static func subject(_ path: String) -> String { path == "<memory>" ? "the audio" : path }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            "cannot open \(path) as audio: \(reason)"
        case let .formatUnavailable(format, version):
            "\(format) is not available in this libsndfile (\(version)); available for writing: "
                + SoundFile.writableFormats.map(\.description).joined(separator: ", ")
        case let .unsupportedSampleRate(rate, format, accepted):
            "\(format) cannot be written at \(rate) Hz: accepted are "
                + accepted.map(String.init).joined(separator: ", ") + " Hz (resample first)"
        case let .unsupportedChannelCount(count, format):
            "\(format) cannot be written with \(count) channels"
        case let .readFailed(path, reason):
            "reading \(path) failed: \(reason)"
        case let .writeFailed(path, reason):
            "writing \(path) failed: \(reason)"
        case let .unsupportedFileSampleRate(path, rate, accepted):
            "\(Self.subject(path)) declares a sample rate of \(rate) Hz; accepted are \(accepted.lowerBound) to \(accepted.upperBound) Hz"
        case let .tooManyChannels(path, channels, maximum):
            "\(Self.subject(path)) declares \(channels) channels; at most \(maximum) are accepted"
        case let .tooLong(path, seconds, maximum):
            "\(Self.subject(path)) holds " + (seconds.map { "\(Int($0.rounded())) s of audio, more" } ?? "more audio")
                + " than the \(Int(maximum.rounded())) s accepted"
        }
    }
}
