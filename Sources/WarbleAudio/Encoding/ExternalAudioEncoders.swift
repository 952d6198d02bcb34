import Foundation

/// An encoder of a format libsndfile lacks, from an optional target (WarbleAAC, on FFmpeg's
/// libavcodec), registered by the executable that links it. Without it the format is unavailable and
/// callers say so.
public protocol ExternalAudioEncoder: Sendable {
    /// The sample rates it takes (audio at others is resampled to the nearest at or above).
    var sampleRates: [Int] { get }
    /// The whole file for mono `samples` at `sampleRate` (one of `sampleRates`).
    func encode(_ samples: [Float], sampleRate: Int) throws -> Data
}

/// The registered external encoders.
public enum ExternalAudioEncoders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var encoders: [AudioEncoding: any ExternalAudioEncoder] = [:]

    public static func register(_ encoder: any ExternalAudioEncoder, for encoding: AudioEncoding) {
        lock.withLock { encoders[encoding] = encoder }
    }

    public static func encoder(for encoding: AudioEncoding) -> (any ExternalAudioEncoder)? {
        lock.withLock { encoders[encoding] }
    }
}
