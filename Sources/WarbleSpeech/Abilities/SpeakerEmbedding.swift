import WarbleAudio

/// Something that tells speakers apart: a fixed-length embedding of the voice heard in a clip (a
/// d-vector), of unit length, so that the dot product of two clips' embeddings (their cosine) says how
/// alike their speakers sound.
public protocol SpeakerEmbedding: Sendable {
    /// Values in each embedding.
    var dimensions: Int { get }
    /// The shortest clip it takes, in seconds (shorter clips are refused with `ModelError(.badInput, …)`).
    var minimumSeconds: Double { get }
    /// The speaker embedding of `audio` (any sample rate and channel count), of unit length. Cancelling `cancel` stops
    /// it between its runs (`CancellationError`).
    func embedding(_ audio: AudioBuffer, cancel: CancellationToken) throws -> [Float]
}

extension SpeakerEmbedding {
    /// `embedding(_:cancel:)` that nothing cancels.
    public func embedding(_ audio: AudioBuffer) throws -> [Float] {
        try embedding(audio, cancel: CancellationToken())
    }
}
