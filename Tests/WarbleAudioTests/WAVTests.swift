import Foundation
import Testing
@testable import WarbleAudio

@Suite struct WAVTests {
    static let ramp: [Float] = (0..<64).map { Float($0 - 32) / 32 }

    @Test(arguments: [WAVSampleFormat.uint8, .int16, .int24, .int32, .float32, .float64])
    func roundTripIsExactForRepresentableSamples(format: WAVSampleFormat) throws {
        let stereo = try AudioBuffer(channels: [Self.ramp, Self.ramp.reversed()], sampleRate: 22050)
        let data = try WAVEncoder(sampleFormat: format).encode(stereo)
        let file = try WAVDecoder.decode(data)
        #expect(file.sampleFormat == format)
        #expect(file.audio == stereo)
        #expect(!file.wasTruncated)
    }

    @Test func extensibleHeaderForMoreThanTwoChannels() throws {
        let buffer = try AudioBuffer(channels: [[0.25], [0.5], [-0.5]], sampleRate: 48000)
        let data = try WAVEncoder(sampleFormat: .int24).encode(buffer)
        #expect(data[20] == 0xFE && data[21] == 0xFF)
        #expect(try WAVDecoder.decode(data).audio == buffer)
    }

    @Test func integerEncodingClipsAndRounds() throws {
        let buffer = AudioBuffer(mono: [2, -2, .nan, 0.5 / 32768 + 1e-7], sampleRate: 8000)
        let decoded = try WAVDecoder.decode(try WAVEncoder(sampleFormat: .int16).encode(buffer)).audio.samples
        #expect(decoded == [32767 / 32768, -1, 0, 1 / 32768])
    }

    @Test func skipsUnknownAndOddSizedChunks() throws {
        var bytes = header(riff: 0, format: pcm16(channels: 1, rate: 16000))
        bytes += chunk("LIST", [1, 2, 3])  // odd size: one pad byte follows
        bytes += chunk("data", le16(1000) + le16(-1000))
        let file = try WAVDecoder.decode(bytes)
        #expect(file.audio.samples == [1000 / 32768, -1000 / 32768])
        #expect(file.audio.sampleRate == 16000)
    }

    @Test(arguments: [UInt32(0), 0xFFFF_FFFF])
    func streamedDataSizeRunsToEnd(size: UInt32) throws {
        var bytes = header(riff: size, format: pcm16(channels: 1, rate: 8000))
        bytes += Array("data".utf8) + le32(size) + le16(1) + le16(2) + le16(3)
        #expect(try WAVDecoder.decode(bytes).audio.frameCount == 3)
    }

    @Test func truncatedDataIsReadOrRejectedByOption() throws {
        var bytes = header(riff: 0, format: pcm16(channels: 2, rate: 8000))
        bytes += Array("data".utf8) + le32(400) + le16(1) + le16(2) + le16(3)  // 1.5 frames present
        let file = try WAVDecoder.decode(bytes)
        #expect(file.wasTruncated && file.audio.frameCount == 1)
        #expect(throws: WAVError.truncatedData(declared: 400, available: 6)) {
            try WAVDecoder.decode(bytes, options: .init(allowTruncation: false))
        }
    }

    @Test func rf64UsesDS64Sizes() throws {
        var bytes = Array("RF64".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8)
        bytes += chunk("ds64", le64(0) + le64(4) + le64(2) + le32(0))
        bytes += chunk("fmt ", pcm16(channels: 1, rate: 8000))
        bytes += Array("data".utf8) + le32(0xFFFF_FFFF) + le16(5) + le16(6) + le16(7)
        #expect(try WAVDecoder.decode(bytes).audio.frameCount == 2)
    }

    @Test func decodesG711() throws {
        var fmt = pcm16(channels: 1, rate: 8000)
        fmt[0] = 7; fmt[12] = 1; fmt[14] = 8  // µ-law, block align 1, 8 bits
        let bytes = header(riff: 0, format: fmt) + chunk("data", [0xFF, 0x7F, 0x00, 0x80])
        let samples = try WAVDecoder.decode(bytes).audio.samples
        #expect(samples[0] == 0 && samples[1] == 0)
        #expect(samples[2] == -32124 / 32768 && samples[3] == 32124 / 32768)
        #expect(G711.aLaw[0xD5] == 8 / 32768 && G711.aLaw[0x55] == -8 / 32768)
    }

    @Test func clearErrors() {
        #expect(throws: WAVError.notRIFF(found: "'OggS'")) { try WAVDecoder.decode(Array("OggS0000WAVE".utf8)) }
        #expect(throws: WAVError.notRIFF(found: "end of file")) { try WAVDecoder.decode([UInt8]()) }
        #expect(throws: WAVError.notWAVE(found: "'AVI '")) { try WAVDecoder.decode(Array("RIFF0000AVI ".utf8)) }
        #expect(throws: WAVError.missingFormatChunk) {
            try WAVDecoder.decode(header(riff: 0, format: nil) + chunk("data", [0, 0]))
        }
        #expect(throws: WAVError.missingDataChunk) {
            try WAVDecoder.decode(header(riff: 0, format: pcm16(channels: 1, rate: 8000)))
        }
        var mp3 = pcm16(channels: 1, rate: 8000)
        mp3[0] = 0x55
        #expect(throws: WAVError.unsupportedFormatTag(0x55)) {
            try WAVDecoder.decode(header(riff: 0, format: mp3) + chunk("data", [0, 0]))
        }
        #expect(WAVError.unsupportedFormatTag(0x55).description.contains("0x0055 (MPEG Layer 3)"))
        #expect(throws: WAVError.invalidChannelCount(0)) {
            try WAVDecoder.decode(header(riff: 0, format: pcm16(channels: 0, rate: 8000)) + chunk("data", []))
        }
        var badAlign = pcm16(channels: 2, rate: 8000)
        badAlign[12] = 1
        #expect(throws: WAVError.invalidBlockAlign(found: 1, channels: 2, bitsPerSample: 16)) {
            try WAVDecoder.decode(header(riff: 0, format: badAlign) + chunk("data", []))
        }
        #expect(throws: WAVError.unencodableFormat(.muLaw)) { try WAVEncoder(sampleFormat: .muLaw) }
    }

    @Test func fileWriterPatchesSizesOnClose() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("warble-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try WAVFileWriter(url: url, sampleRate: 16000, channelCount: 1, sampleFormat: .int16)
        try writer.write(AudioBuffer(mono: [0.5, -0.5, 0.25], sampleRate: 16000))
        try writer.write(AudioBuffer(mono: [0.125], sampleRate: 16000))
        #expect(throws: WAVError.mismatchedBuffer(sampleRate: 8000, channelCount: 1, expectedSampleRate: 16000, expectedChannelCount: 1)) {
            try writer.write(AudioBuffer(mono: [0], sampleRate: 8000))
        }
        try writer.close()
        #expect(throws: WAVError.closed) { try writer.write(AudioBuffer(mono: [0], sampleRate: 16000)) }
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(bytes.count == 44 + 8)
        #expect(Array(bytes[40..<44]) == le32(8) && Array(bytes[4..<8]) == le32(44))
        let file = try WAVDecoder.decode(bytes, options: .init(allowTruncation: false))
        #expect(file.audio.samples == [0.5, -0.5, 0.25, 0.125])
    }

    @Test func streamWriterWritesUnknownSizes() throws {
        var out = Data()
        let writer = try WAVStreamWriter(sampleRate: 24000, sampleFormat: .float32) { out.append($0) }
        try writer.write(AudioBuffer(mono: [0.1, 0.2], sampleRate: 24000))
        try writer.write(AudioBuffer(mono: [0.3], sampleRate: 24000))
        #expect(Array(out[4..<8]) == le32(0xFFFF_FFFF) && Array(out[40..<44]) == le32(0xFFFF_FFFF))
        #expect(try WAVDecoder.decode(out).audio.samples == [0.1, 0.2, 0.3])
    }

    // MARK: byte builders

    func le16(_ v: Int16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    func le64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(UInt32(body.count)) + body + (body.count & 1 == 1 ? [0] : [])
    }
    func pcm16(channels: UInt16, rate: UInt32) -> [UInt8] {
        withUnsafeBytes(of: UInt16(1).littleEndian, Array.init) + withUnsafeBytes(of: channels.littleEndian, Array.init)
            + le32(rate) + le32(rate * UInt32(channels) * 2)
            + withUnsafeBytes(of: (channels * 2).littleEndian, Array.init) + withUnsafeBytes(of: UInt16(16).littleEndian, Array.init)
    }
    func header(riff: UInt32, format: [UInt8]?) -> [UInt8] {
        Array("RIFF".utf8) + le32(riff) + Array("WAVE".utf8) + (format.map { chunk("fmt ", $0) } ?? [])
    }
}
