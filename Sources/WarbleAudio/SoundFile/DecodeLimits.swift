/// What a decoder accepts from a file it did not write: bounds that keep one small, hostile file
/// from asking for gigabytes (a header that claims 1 Hz turns 20 KB into 1,000 s of audio to resample).
public struct DecodeLimits: Sendable, Equatable {
    /// Sample rates a file may declare.
    public var sampleRates: ClosedRange<Int>
    /// The most channels a file may declare.
    public var maximumChannels: Int
    /// The longest audio decoded, in seconds; a longer file is refused (nil: no limit).
    public var maximumSeconds: Double?

    public init(sampleRates: ClosedRange<Int> = 8000...192_000, maximumChannels: Int = 64, maximumSeconds: Double? = nil) {
        self.sampleRates = sampleRates
        self.maximumChannels = maximumChannels
        self.maximumSeconds = maximumSeconds
    }

    /// Speech audio of any length at the rates recorders and codecs use (8–192 kHz, up to 64 channels).
    public static let standard = DecodeLimits()
}

/// Decoded audio and what the decoder noticed about the file.
public struct DecodedAudio: Sendable {
    public var buffer: AudioBuffer
    /// Frames the file's header declares, when the format states them exactly (nil for MP3, whose
    /// length libsndfile estimates, and for streams that do not say).
    public var declaredFrames: Int?

    /// Whether fewer frames could be decoded than the header declares: the file is cut short or damaged.
    public var isTruncated: Bool {
        guard let declaredFrames else { return false }
        return buffer.frameCount < declaredFrames
    }

    /// "declares 12.0 s, 0.4 s could be decoded", for warnings and errors.
    public var truncationDescription: String {
        let rate = Double(buffer.sampleRate)
        let declared = Double(declaredFrames ?? buffer.frameCount) / rate
        return "its header declares \(Self.seconds(declared)) s of audio but only \(Self.seconds(buffer.duration)) s "
            + "could be decoded (the file is cut short or damaged)"
    }

    private static func seconds(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
