/// Something that tells speech from silence: the probability of speech in each window of mono audio
/// at its sample rate (Silero VAD: 512-sample windows of 16 kHz audio).
public protocol VoiceActivityDetector: Sendable {
    /// The sample rate it reads.
    var sampleRate: Int { get }
    /// Samples per window.
    var window: Int { get }
    /// The speech probability of each full window of `samples`, in order; with `padLast`, a last partial
    /// window is zero-padded and included.
    func probabilities(_ samples: [Float], padLast: Bool) throws -> [Float]
}
