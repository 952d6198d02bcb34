import Foundation
import Testing
@testable import WarbleAudio

/// A WAV stream whose length is known before the first byte gets exact sizes, and is held to them.
@Suite struct KnownLengthEncoderTests {
    func sizes(_ data: Data) -> (riff: UInt32, data: UInt32) {
        func field(_ offset: Int) -> UInt32 { data[offset..<offset + 4].enumerated().reduce(0) { $0 | UInt32($1.1) << (8 * $1.0) } }
        return (field(4), field(40))
    }

    func stream(_ chunks: [[Float]], known: Int?, encoding: AudioEncoding = .wav, outputRate: Int? = nil) throws -> Data {
        let encoder = try StreamingAudioEncoder(encoding: encoding, inputRate: 22050, outputRate: outputRate, knownFrames: known)
        var data = Data()
        for chunk in chunks { data.append(try encoder.encode(chunk)) }
        data.append(try encoder.finish())
        return data
    }

    @Test func exactSizesWhenTheLengthIsKnown() throws {
        let data = try stream([[Float](repeating: 0.1, count: 300), [Float](repeating: -0.1, count: 200)], known: 500)
        #expect(data.count == 44 + 1000)
        #expect(sizes(data) == (riff: UInt32(36 + 1000), data: 1000))
        let decoded = try WAVDecoder.decode(data, options: .init(allowTruncation: false))
        #expect(decoded.audio.frameCount == 500)
    }

    @Test func theStreamIsHeldToTheLengthItAnnounced() throws {
        let long = try stream([[Float](repeating: 0.1, count: 400), [Float](repeating: 0.1, count: 400)], known: 500)
        #expect(long.count == 44 + 1000)
        let short = try stream([[Float](repeating: 0.1, count: 100)], known: 500)
        #expect(short.count == 44 + 1000)
        #expect(short.suffix(800).allSatisfy { $0 == 0 })
    }

    @Test func unknownLengthOrResamplingKeepsTheStreamingSizes() throws {
        #expect(sizes(try stream([[Float](repeating: 0.1, count: 300)], known: nil)) == (0xFFFF_FFFF, 0xFFFF_FFFF))
        let resampled = try StreamingAudioEncoder(encoding: .wav, inputRate: 22050, outputRate: 24000, knownFrames: 300)
        #expect(!resampled.hasExactSizes)
        let pcm = try StreamingAudioEncoder(encoding: .pcm16, inputRate: 22050, knownFrames: 300)
        #expect(!pcm.hasExactSizes)
    }
}
