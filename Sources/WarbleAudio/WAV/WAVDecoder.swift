import Foundation

/// Reads WAV (RIFF, RF64/BW64) files in Swift: integer PCM of 8/16/24/32 bits, 32/64-bit float,
/// A-law/µ-law, WAVE_FORMAT_EXTENSIBLE. Unknown and odd-sized chunks are skipped; a data chunk whose
/// size is 0 or 0xFFFFFFFF (streamed files) runs to the end of the input. Any malformed input gives
/// a `WAVError`; the decoder never traps and allocates at most the size of its input times eight.
public enum WAVDecoder {
    public static let maximumChannelCount = 1024

    public struct Options: Sendable {
        /// Accept a data chunk that declares more bytes than the input holds, reading the whole frames
        /// that are there (a file cut off, or one still being written). On by default.
        public var allowTruncation: Bool
        public init(allowTruncation: Bool = true) { self.allowTruncation = allowTruncation }
    }

    /// Decodes a whole WAV file held in memory.
    public static func decode(_ bytes: some ContiguousBytes, options: Options = Options()) throws(WAVError) -> WAVFile {
        try bytes.withUnsafeBytes { raw in Result { () throws(WAVError) in try decode(raw, options: options) } }.get()
    }

    /// Reads and decodes a WAV file.
    public static func decode(contentsOf url: URL, options: Options = Options()) throws(WAVError) -> WAVFile {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw .io(path: url.path, message: "cannot read: \(error.localizedDescription)")
        }
        return try decode(data, options: options)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: Options) throws(WAVError) -> WAVFile {
        let reader = ByteReader(bytes)
        let magic = reader.bytes(at: 0, count: 4)
        let isRF64: Bool
        switch magic {
        case Array("RIFF".utf8): isRF64 = false
        case Array("RF64".utf8), Array("BW64".utf8): isRF64 = true
        default: throw .notRIFF(found: WAVError.fourCC(magic))
        }
        let wave = reader.bytes(at: 8, count: 4)
        guard wave == Array("WAVE".utf8) else { throw .notWAVE(found: WAVError.fourCC(wave)) }

        var format: WAVFormatChunk?
        var ds64DataSize: UInt64?
        var dataRange: Range<Int>?
        var truncated = false
        var position = 12
        while position <= bytes.count - 8 {
            let id = reader.bytes(at: position, count: 4)
            let size32 = reader.uint32(at: position + 4)
            let body = position + 8
            let available = bytes.count - body
            switch id {
            case Array("ds64".utf8) where isRF64:
                if available >= 24 { ds64DataSize = reader.uint64(at: body + 8) }
            case Array("fmt ".utf8):
                format = try WAVFormatChunk.parse(reader, at: body, size: min(Int(size32), available))
            case Array("data".utf8):
                var declared: UInt64 = UInt64(size32)
                var runsToEnd = size32 == 0 || (size32 == 0xFFFF_FFFF && !isRF64)
                if isRF64 && size32 == 0xFFFF_FFFF {
                    guard let size64 = ds64DataSize else { throw .missingDS64Chunk }
                    declared = size64
                    if size64 == 0 { runsToEnd = true }
                }
                if runsToEnd {
                    dataRange = body..<bytes.count
                } else if declared > UInt64(available) {
                    guard options.allowTruncation else {
                        throw .truncatedData(declared: Int(clamping: declared), available: available)
                    }
                    truncated = true
                    dataRange = body..<bytes.count
                } else {
                    dataRange = body..<(body + Int(declared))
                }
            default:
                break
            }
            if dataRange != nil && format != nil { break }
            if let range = dataRange, range.upperBound == bytes.count { break }
            // Chunks are padded to an even size; an impossible size just ends the scan.
            let step = UInt64(size32) + UInt64(size32 & 1)
            guard step <= UInt64(available) else { break }
            position = body + Int(step)
        }
        guard let format else { throw .missingFormatChunk }
        guard let dataRange else { throw .missingDataChunk }

        let blockAlign = format.blockAlign
        let frames = dataRange.count / blockAlign
        let channelCount = format.channelCount
        let start = bytes.baseAddress.map { UnsafeRawPointer($0) + dataRange.lowerBound }
        var channels = [[Float]]()
        channels.reserveCapacity(channelCount)
        for c in 0..<channelCount {
            channels.append([Float](unsafeUninitializedCapacity: frames) { out, count in
                if let start, frames > 0 {
                    WAVSampleDecoding.decode(
                        format.sampleFormat, from: start + c * format.sampleFormat.bytesPerSample,
                        stride: blockAlign, count: frames, into: out.baseAddress!)
                }
                count = frames
            })
        }
        let audio = try! AudioBuffer(channels: channels, sampleRate: format.sampleRate)  // shapes checked above
        return WAVFile(
            audio: audio, sampleFormat: format.sampleFormat, validBitsPerSample: format.validBits,
            channelMask: format.channelMask, wasTruncated: truncated)
    }
}

/// Bounds-checked little-endian reads: out-of-range reads give zeros / short arrays, never a trap.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(offset + count, bytes.count)])
    }

    func uint16(at offset: Int) -> UInt16 {
        guard offset >= 0, offset <= bytes.count - 2 else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { return 0 }
        return UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16
    }

    func uint64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset <= bytes.count - 8 else { return 0 }
        return UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32
    }
}
