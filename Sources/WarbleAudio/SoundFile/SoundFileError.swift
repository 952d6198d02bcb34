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
        }
    }
}
