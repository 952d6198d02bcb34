/// One block of audio sent to the server ("705" event): 16-bit little-endian mono PCM, with the
/// payload escaped so that it holds no line feed.
///
/// The escaping is HDLC's: every 0x0A or 0x7D byte is sent as 0x7D followed by the byte with bit 5
/// inverted. The payload starts right after the NUL that follows "705-AUDIO".
public struct AudioFrame: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    /// Frames longer than this are split: 46 ms at 22 050 Hz. speech-dispatcher plays a frame as one
    /// track, so short frames let a STOP or PAUSE take effect quickly; the header costs ~100 bytes.
    public static let maximumSamples = 1024

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// `samples` in [-1, 1] scaled by 32767, rounded and clipped (NaN becomes 0).
    public init(floats: some Collection<Float>, sampleRate: Int) {
        self.samples = floats.map { value in
            guard !value.isNaN else { return 0 }
            let scaled = (value * 32767).rounded()
            return Int16(min(max(scaled, -32768), 32767))
        }
        self.sampleRate = sampleRate
    }

    /// The event's bytes, header lines to the closing "705 AUDIO\n".
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2 + samples.count / 64 + 128)
        let header = "705-bits=16\n705-num_channels=1\n705-sample_rate=\(sampleRate)\n"
            + "705-num_samples=\(samples.count)\n705-big_endian=0\n705-AUDIO"
        bytes.append(contentsOf: header.utf8)
        bytes.append(0)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            Self.appendEscaped(UInt8(truncatingIfNeeded: value), to: &bytes)
            Self.appendEscaped(UInt8(truncatingIfNeeded: value >> 8), to: &bytes)
        }
        bytes.append(contentsOf: "\n705 AUDIO\n".utf8)
        return bytes
    }

    /// This frame cut into frames of at most `maximumSamples`.
    public func split(maximumSamples: Int = AudioFrame.maximumSamples) -> [AudioFrame] {
        guard samples.count > maximumSamples else { return [self] }
        return stride(from: 0, to: samples.count, by: maximumSamples).map { start in
            AudioFrame(samples: Array(samples[start..<min(start + maximumSamples, samples.count)]), sampleRate: sampleRate)
        }
    }

    static let escape: UInt8 = 0x7D

    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        if byte == 0x0A || byte == escape {
            bytes.append(escape)
            bytes.append(byte ^ 0x20)
        } else {
            bytes.append(byte)
        }
    }

    /// The inverse of the payload escaping (for tests and tools): the raw bytes of an escaped payload.
    public static func unescape(_ payload: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var escaped = false
        for byte in payload {
            if escaped {
                out.append(byte ^ 0x20)
                escaped = false
            } else if byte == escape {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return out
    }
}
