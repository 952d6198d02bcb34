/// Something that tells speech from silence: the probability of speech in each window of mono audio
/// at its sample rate (Silero VAD: 512-sample windows of 16 kHz audio).
public protocol VoiceActivityDetector: Sendable {
    /// The sample rate it reads.
    var sampleRate: Int { get }
    /// Samples per window.
    var window: Int { get }
    /// The speech probability of each full window of `samples`, in order; with `padLast`, a last partial
    /// window is zero-padded and included. Cancelling `cancel` stops it between windows (`CancellationError`).
    func probabilities(_ samples: [Float], padLast: Bool, cancel: CancellationToken) throws -> [Float]
    /// A new stream: the detector's state over one continuous input, fed a window at a time as audio
    /// arrives (live input). Its probabilities equal `probabilities` over the same windows.
    func makeStream() throws -> any VoiceActivityStream
}

extension VoiceActivityDetector {
    /// `probabilities(_:padLast:cancel:)` that nothing cancels.
    public func probabilities(_ samples: [Float], padLast: Bool = false) throws -> [Float] {
        try probabilities(samples, padLast: padLast, cancel: CancellationToken())
    }
}

/// The state of a voice activity detector over one continuous input (Silero: its LSTM state and the
/// last samples of the previous window). Belongs to one task.
public protocol VoiceActivityStream: AnyObject {
    /// The speech probability of the next window of the stream (exactly the detector's `window` samples).
    func probability(_ window: ArraySlice<Float>) throws -> Float
}
