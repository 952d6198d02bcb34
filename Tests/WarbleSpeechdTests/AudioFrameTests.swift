import Testing
import WarbleSpeechd

@Suite struct AudioFrameTests {
    /// Splits an encoded frame into its header lines and its unescaped payload.
    func decode(_ bytes: [UInt8]) -> (header: [String], payload: [UInt8], trailer: String) {
        let nul = bytes.firstIndex(of: 0)!
        let header = String(decoding: bytes[..<nul], as: UTF8.self).split(separator: "\n").map(String.init)
        let rest = bytes[(nul + 1)...]
        let newline = rest.firstIndex(of: 0x0A)!
        return (header, AudioFrame.unescape(rest[..<newline]), String(decoding: rest[(newline + 1)...], as: UTF8.self))
    }

    @Test func headerAndTrailerAsSpeechDispatcherReadsThem() {
        let (header, payload, trailer) = decode(AudioFrame(samples: [1, -2, 3], sampleRate: 22050).encoded())
        #expect(header == ["705-bits=16", "705-num_channels=1", "705-sample_rate=22050", "705-num_samples=3",
                           "705-big_endian=0", "705-AUDIO"])
        #expect(payload == [1, 0, 0xFE, 0xFF, 3, 0])
        #expect(trailer == "705 AUDIO\n")
    }

    @Test func lineFeedsAndEscapesAreEscapedAndComeBack() {
        // 0x0A0A, 0x7D7D, 0x0A7D and every other byte pair, both orders.
        var samples: [Int16] = [0x0A0A, 0x7D7D, 0x7D0A, 0x0A7D, 0x2A5D]
        samples += (0..<256).map { Int16(bitPattern: UInt16($0) | UInt16(255 - $0) << 8) }
        let bytes = AudioFrame(samples: samples, sampleRate: 16000).encoded()
        let nul = bytes.firstIndex(of: 0)!
        let body = bytes[(nul + 1)...].dropLast("\n705 AUDIO\n".utf8.count)
        #expect(!body.contains(0x0A), "the escaped payload holds no line feed")
        let payload = AudioFrame.unescape(body)
        let expected = samples.flatMap { [UInt8(truncatingIfNeeded: UInt16(bitPattern: $0)), UInt8(UInt16(bitPattern: $0) >> 8)] }
        #expect(payload == expected)
        // 0x0A is sent as 7D 2A, 0x7D as 7D 5D.
        #expect(Array(body.prefix(8)) == [0x7D, 0x2A, 0x7D, 0x2A, 0x7D, 0x5D, 0x7D, 0x5D])
    }

    @Test func floatsAreScaledRoundedAndClipped() {
        let frame = AudioFrame(floats: [0, 1, -1, 2, -2, .nan, 0.5], sampleRate: 24000)
        #expect(frame.samples == [0, 32767, -32767, 32767, -32768, 0, 16384])
    }

    @Test func longFramesAreSplit() {
        let frame = AudioFrame(samples: Array(repeating: 7, count: 2500), sampleRate: 22050)
        #expect(frame.split().map(\.samples.count) == [1024, 1024, 452])
        #expect(frame.split(maximumSamples: 1000).map(\.samples.count) == [1000, 1000, 500])
        #expect(frame.split().allSatisfy { $0.sampleRate == 22050 })
        #expect(AudioFrame(samples: [1], sampleRate: 1).split().count == 1)
    }
}
