import Foundation
import Testing
@testable import WarbleAudio
import WarbleTestSupport

@Suite struct SoundFileTests {
    static let lossless = ["pcm16.wav", "pcm24.wav", "float.wav", "u8.wav", "double.wav", "extensible.wav", "pcm16.flac", "pcm16.aiff"]

    @Test(.needs(fixtures: "audio"), arguments: lossless)
    func readsLosslessFilesLikePythonSoundfile(name: String) throws {
        let url = try Fixtures.file(name)
        let expected = try Fixtures.array("decoded_" + name.replacingOccurrences(of: ".", with: "_")).values
        let audio = try SoundFile.read(contentsOf: url)
        #expect(audio.sampleRate == 16000 && audio.channelCount == 2)
        #expect(maxAbsDiff(audio.interleaved(), expected) == 0)  // tolerance: exact
        let fromMemory = try SoundFile.decode(try Data(contentsOf: url))
        #expect(fromMemory == audio)
    }

    @Test(.needs(fixtures: "audio"), arguments: ["pcm16.wav", "pcm24.wav", "float.wav", "u8.wav", "double.wav", "extensible.wav"])
    func swiftWAVDecoderAgreesWithLibsndfile(name: String) throws {
        let expected = try Fixtures.array("decoded_" + name.replacingOccurrences(of: ".", with: "_")).values
        let file = try WAVDecoder.decode(contentsOf: try Fixtures.file(name))
        #expect(maxAbsDiff(file.audio.interleaved(), expected) == 0)  // tolerance: exact
    }

    @Test(.needs(fixtures: "audio"), arguments: ["vorbis.ogg", "opus.ogg", "mpeg.mp3"])
    func readsLossyFiles(name: String) throws {
        let audio = try SoundFile.read(contentsOf: try Fixtures.file(name))
        let expected = try Fixtures.array("decoded_" + name.replacingOccurrences(of: ".", with: "_")).values
        #expect(audio.channelCount == 2 && audio.sampleRate == 16000)
        // Decoders in Python's bundled libsndfile and Debian's may differ slightly: SNR > 40 dB against
        // soundfile's decode of the same file (lengths may differ by the decoder's padding).
        let mine = audio.interleaved()
        let n = min(mine.count, expected.count)
        #expect(abs(mine.count - expected.count) <= 2 * 2048)
        #expect(snr(Array(mine[0..<n]), reference: Array(expected[0..<n])) > 40)
    }

    @Test func writesAndReadsBackEveryAvailableFormat() throws {
        #expect(SoundFile.writableFormats.contains(.flac16))
        let source = try AudioBuffer(channels: [
            (0..<16000).map { Float(sin(Double($0) * 0.05) * 0.4) },
            (0..<16000).map { Float(sin(Double($0) * 0.09) * 0.3) },
        ], sampleRate: 16000)
        for format in SoundFile.writableFormats {
            let data = try SoundFile.encode(source, format: format)
            let back = try SoundFile.decode(data)
            #expect(back.channelCount == 2 && back.sampleRate == 16000, "\(format)")
            if format.isLossy {
                #expect(abs(back.frameCount - source.frameCount) < 4096, "\(format)")
            } else {
                #expect(maxAbsDiff(back.interleaved(), source.interleaved()) < 1e-4, "\(format)")  // 16-bit quantisation
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("warble-\(UUID()).flac")
        defer { try? FileManager.default.removeItem(at: url) }
        try SoundFile.write(source, to: url, format: .flac24)
        #expect(maxAbsDiff(try SoundFile.read(contentsOf: url).interleaved(), source.interleaved()) < 1e-6)
    }

    @Test func clearErrors() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/warble.flac")
        #expect { try SoundFile.read(contentsOf: missing) } throws: { error in
            guard case SoundFileError.cannotOpen(let path, _) = error else { return false }
            return path == missing.path
        }
        #expect(throws: SoundFileError.self) { try SoundFile.decode(Data("not audio at all".utf8)) }
        if SoundFile.canWrite(.oggOpus) {
            #expect(throws: SoundFileError.unsupportedSampleRate(22050, format: .oggOpus, accepted: [8000, 12000, 16000, 24000, 48000])) {
                try SoundFile.encode(AudioBuffer(mono: [0, 0], sampleRate: 22050), format: .oggOpus)
            }
        }
        let message = SoundFileError.formatUnavailable(.mp3, libsndfile: "libsndfile-x").description
        #expect(message.contains("MP3") && message.contains("available for writing"))
    }

    /// Found by fuzz-decode (Fuzz/Corpus/fuzz-decode/flac-claims-billions-of-frames): 47 bytes of FLAC
    /// header whose stream info claims billions of frames made the reader reserve 63 GB before reading
    /// one (an out-of-memory abort). The reservation now trusts the header only so far; the file,
    /// which holds no frames, gives an error or no audio.
    @Test func headerClaimingBillionsOfFramesAllocatesNothingLikeThat() {
        let bytes: [UInt8] = [
            0x66, 0x4c, 0x61, 0x43, 0x00, 0x00, 0x00, 0x22, 0x10, 0x00, 0x10, 0x00, 0x00, 0x01, 0x01, 0x34,
            0x34, 0x01, 0x00, 0x03, 0x4f, 0x70, 0x75, 0x73, 0x48, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x05, 0x50,
            0x41, 0x49, 0x46, 0x70, 0x00, 0x00, 0x00, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x05, 0x50, 0x00,
        ]
        if let audio = try? SoundFile.decode(Data(bytes)) {
            #expect(audio.frameCount == 0)
        }
    }
}
