import WarbleAudio

/// Something that clones a voice: turns a short clip of a speaker (and, for some families, what the
/// clip says) into the conditioning its model family speaks with. The result goes into a
/// `VoiceProfile`, kept by the engine's voice library and used like any stock voice.
public protocol VoiceEncoder: Sendable {
    /// The model id whose voices this encoder makes.
    var modelID: String { get }
    /// The shortest and longest clip it takes, in seconds.
    var clipSeconds: ClosedRange<Double> { get }
    /// Whether `encode` needs the clip's transcript.
    var needsTranscript: Bool { get }
    /// The conditioning for `clip` (any rate and channel count). Cancelling the calling task stops it.
    func encode(_ clip: AudioBuffer, transcript: String?) async throws -> VoiceConditioning
}
