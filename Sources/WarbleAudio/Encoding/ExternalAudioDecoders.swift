import Foundation

/// A decoder of a format libsndfile cannot read, from an optional target (WarbleAAC reads the ADTS AAC that
/// `ExternalAudioEncoders` writes), registered by the executable that links it. `SoundFile.load` asks the
/// registered decoders when libsndfile does not recognise a file, so that what Warble writes it also reads.
public protocol ExternalAudioDecoder: Sendable {
    /// The format's name in messages ("AAC (ADTS)").
    var formatName: String { get }
    /// Whether the file's first bytes are this format's.
    func recognises(_ prefix: Data) -> Bool
    /// The whole file, mono or not, within `limits` (sample rate, channels, length).
    func decode(_ data: Data, limits: DecodeLimits) throws(SoundFileError) -> AudioBuffer
}

/// The registered external decoders.
public enum ExternalAudioDecoders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var decoders: [any ExternalAudioDecoder] = []

    public static func register(_ decoder: any ExternalAudioDecoder) {
        lock.withLock {
            if !decoders.contains(where: { $0.formatName == decoder.formatName }) { decoders.append(decoder) }
        }
    }

    /// The decoder that recognises `prefix`, if one is registered.
    public static func decoder(recognising prefix: Data) -> (any ExternalAudioDecoder)? {
        lock.withLock { decoders.first { $0.recognises(prefix) } }
    }
}
