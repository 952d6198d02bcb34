/// Why audio could not be played.
public enum PlaybackError: Error, Equatable, CustomStringConvertible {
    /// No sound server answered (a headless machine, or `PULSE_SERVER` pointing nowhere).
    case noSoundServer(String)
    /// The server refused or lost the stream while playing.
    case failed(String)
    case invalidSampleRate(Int)
    case closed
    /// No source of that name (`--source`); `available` lists the sources there are.
    case unknownSource(String, available: [String])
    /// No sound server answered when recording (live input).
    case noSoundServerToRecord(String)
    /// This build has no playback backend (libpulse is used on Linux only).
    case unsupportedPlatform

    public var description: String {
        switch self {
        case .noSoundServer(let reason):
            "no sound server to play through (\(reason)); start PulseAudio or PipeWire, "
                + "or write a file instead with -o FILE (or -o - for standard output)"
        case .failed(let reason): "playback failed: \(reason)"
        case .invalidSampleRate(let rate): "cannot play audio at \(rate) Hz"
        case .closed: "the player is already closed"
        case .unknownSource(let name, let available):
            "no sound source named '\(name)'; the sources are: "
                + (available.isEmpty ? "none" : available.joined(separator: ", ")) + " (see --list-sources)"
        case .noSoundServerToRecord(let reason):
            "no PulseAudio/PipeWire server answered: \(reason); start one or set PULSE_SERVER"
        case .unsupportedPlatform: "this build cannot play audio (it uses PulseAudio, on Linux); write a file with -o FILE"
        }
    }
}
