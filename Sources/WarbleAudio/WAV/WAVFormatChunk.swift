/// The parsed and validated `fmt ` chunk.
struct WAVFormatChunk {
    static let pcmTag: UInt16 = 0x0001
    static let floatTag: UInt16 = 0x0003
    static let aLawTag: UInt16 = 0x0006
    static let muLawTag: UInt16 = 0x0007
    static let extensibleTag: UInt16 = 0xFFFE
    /// Bytes 2…15 shared by the KSDATAFORMAT_SUBTYPE_* GUIDs (the first two hold the format tag).
    static let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    var sampleFormat: WAVSampleFormat
    var channelCount: Int
    var sampleRate: Int
    var blockAlign: Int
    var validBits: Int
    var channelMask: UInt32

    static func parse(_ reader: ByteReader, at body: Int, size: Int) throws(WAVError) -> WAVFormatChunk {
        guard size >= 16 else { throw .formatChunkTooShort(size: size, required: 16) }
        var tag = reader.uint16(at: body)
        let channels = Int(reader.uint16(at: body + 2))
        let rate = reader.uint32(at: body + 4)
        let blockAlign = Int(reader.uint16(at: body + 12))
        let bits = Int(reader.uint16(at: body + 14))
        var validBits = bits
        var mask: UInt32 = 0
        if tag == extensibleTag {
            guard size >= 40 else { throw .formatChunkTooShort(size: size, required: 40) }
            let valid = Int(reader.uint16(at: body + 18))
            if valid > 0 && valid <= bits { validBits = valid }
            mask = reader.uint32(at: body + 20)
            let guid = reader.bytes(at: body + 24, count: 16)
            let subTag = UInt16(guid[0]) | UInt16(guid[1]) << 8
            guard Array(guid[2...]) == guidTail, [pcmTag, floatTag, aLawTag, muLawTag].contains(subTag) else {
                throw .unsupportedSubFormat(guid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
            }
            tag = subTag
        }
        guard channels >= 1, channels <= WAVDecoder.maximumChannelCount else { throw .invalidChannelCount(channels) }
        guard rate >= 1, rate <= UInt32(Int32.max) else { throw .invalidSampleRate(Int(rate)) }

        let format: WAVSampleFormat
        switch (tag, bits) {
        case (pcmTag, 1...8): format = .uint8
        case (pcmTag, 9...16): format = .int16
        case (pcmTag, 17...24): format = .int24
        case (pcmTag, 25...32): format = .int32
        case (floatTag, 32): format = .float32
        case (floatTag, 64): format = .float64
        case (aLawTag, 8): format = .aLaw
        case (muLawTag, 8): format = .muLaw
        case (pcmTag, _), (floatTag, _), (aLawTag, _), (muLawTag, _):
            throw .unsupportedBitDepth(bits: bits, formatTag: tag)
        default:
            throw .unsupportedFormatTag(tag)
        }
        // Some writers pad samples into larger containers (e.g. 24 bits in 4 bytes with block align 4·channels):
        // the container size is then block align / channels, and the samples are left-justified in it.
        var sampleFormat = format
        let minimumAlign = channels * format.bytesPerSample
        guard blockAlign >= minimumAlign else {
            throw .invalidBlockAlign(found: blockAlign, channels: channels, bitsPerSample: bits)
        }
        if blockAlign != minimumAlign, blockAlign % channels == 0, tag == pcmTag {
            switch blockAlign / channels {
            case 2: sampleFormat = .int16
            case 3: sampleFormat = .int24
            case 4: sampleFormat = .int32
            default: break
            }
        }
        return WAVFormatChunk(
            sampleFormat: sampleFormat, channelCount: channels, sampleRate: Int(rate), blockAlign: blockAlign,
            validBits: min(validBits, sampleFormat.bitsPerSample), channelMask: mask)
    }
}
