/// A WAV file that cannot be read or written. Each message says what was found and what is accepted.
public enum WAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first four bytes are not `RIFF`, `RF64` or `BW64`.
    case notRIFF(found: String)
    /// Bytes 8–11 are not `WAVE`.
    case notWAVE(found: String)
    case missingFormatChunk
    case missingDataChunk
    /// An RF64 file without the `ds64` chunk that holds its sizes.
    case missingDS64Chunk
    case formatChunkTooShort(size: Int, required: Int)
    case unsupportedFormatTag(UInt16)
    /// A WAVE_FORMAT_EXTENSIBLE sub-format GUID other than PCM or IEEE float.
    case unsupportedSubFormat(String)
    case unsupportedBitDepth(bits: Int, formatTag: UInt16)
    case invalidChannelCount(Int)
    case invalidSampleRate(Int)
    case invalidBlockAlign(found: Int, channels: Int, bitsPerSample: Int)
    /// The data chunk declares more bytes than the file has (only with `allowTruncation` off).
    case truncatedData(declared: Int, available: Int)
    /// Writing: the format cannot be encoded.
    case unencodableFormat(WAVSampleFormat)
    /// Writing: more data than a RIFF size field can describe.
    case tooLarge(bytes: Int)
    /// Writing: the buffer does not match the writer's sample rate or channel count.
    case mismatchedBuffer(sampleRate: Int, channelCount: Int, expectedSampleRate: Int, expectedChannelCount: Int)
    /// Writing after `close()`.
    case closed
    /// A file-system error while reading or writing `path`.
    case io(path: String, message: String)

    public var description: String {
        switch self {
        case .notRIFF(let found):
            "not a WAV file: expected 'RIFF', 'RF64' or 'BW64' at byte 0, found \(found)"
        case .notWAVE(let found):
            "not a WAV file: expected 'WAVE' at byte 8 of the RIFF header, found \(found)"
        case .missingFormatChunk:
            "WAV file has no 'fmt ' chunk before its samples: a 'fmt ' chunk is required"
        case .missingDataChunk:
            "WAV file has no 'data' chunk: a 'data' chunk is required"
        case .missingDS64Chunk:
            "RF64 file has no 'ds64' chunk (required to give its 64-bit sizes)"
        case let .formatChunkTooShort(size, required):
            "WAV 'fmt ' chunk is \(size) bytes: at least \(required) are required for this format"
        case .unsupportedFormatTag(let tag):
            "WAV format tag \(WAVError.hex(tag))\(WAVError.tagName(tag)) is not supported: accepted are PCM (0x0001), "
                + "IEEE float (0x0003), A-law (0x0006), µ-law (0x0007) and extensible (0xFFFE) with a PCM or float "
                + "sub-format; use SoundFile for compressed formats"
        case .unsupportedSubFormat(let guid):
            "WAVE_FORMAT_EXTENSIBLE sub-format \(guid) is not supported: accepted are PCM and IEEE float"
        case let .unsupportedBitDepth(bits, tag):
            "\(bits)-bit samples are not supported for format tag \(WAVError.hex(tag)): accepted are 8, 16, 24 "
                + "and 32-bit integer PCM, 32 and 64-bit float, 8-bit A-law/µ-law"
        case .invalidChannelCount(let count):
            "WAV file declares \(count) channels: 1 to \(WAVDecoder.maximumChannelCount) are accepted"
        case .invalidSampleRate(let rate):
            "WAV file declares a sample rate of \(rate) Hz: a positive rate is required"
        case let .invalidBlockAlign(found, channels, bits):
            "WAV block align is \(found) bytes, too small for \(channels) channels of \(bits)-bit samples"
        case let .truncatedData(declared, available):
            "WAV data chunk declares \(declared) bytes but only \(available) follow (file cut off); "
                + "allow truncation to read what is there"
        case .unencodableFormat(let format):
            "cannot write \(format) WAV: accepted are 8/16/24/32-bit integer PCM and 32/64-bit float"
        case .tooLarge(let bytes):
            "\(bytes) bytes of samples do not fit a WAV file (at most 4 GiB)"
        case let .mismatchedBuffer(rate, channels, expectedRate, expectedChannels):
            "buffer is \(channels) channels at \(rate) Hz but the writer was opened for \(expectedChannels) "
                + "channels at \(expectedRate) Hz"
        case .closed:
            "the WAV writer is closed"
        case let .io(path, message):
            "\(path): \(message)"
        }
    }

    static func hex(_ tag: UInt16) -> String {
        let digits = String(tag, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func tagName(_ tag: UInt16) -> String {
        switch tag {
        case 0x0002: " (Microsoft ADPCM)"
        case 0x0011: " (IMA ADPCM)"
        case 0x0031: " (GSM 6.10)"
        case 0x0050: " (MPEG)"
        case 0x0055: " (MPEG Layer 3)"
        case 0x2000: " (AC-3)"
        default: ""
        }
    }

    /// Four bytes shown as text when printable, else as hex.
    static func fourCC(_ bytes: some Collection<UInt8>) -> String {
        if bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "'" + String(decoding: bytes, as: UTF8.self) + "'"
        }
        if bytes.isEmpty { return "end of file" }
        return bytes.map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined(separator: " ")
    }
}
