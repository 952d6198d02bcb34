import Foundation
import Testing
@testable import WarbleAudio

/// The shared encoding layer of `warble say` and the server: one header, streamed formats chunk by
/// chunk, whole-file formats at the end, the rates each encoding takes.
@Suite struct StreamingAudioEncoderTests {
    static let tone = (0..<2205).map { Float(0.5 * sin(Double($0) * 0.05)) }

    func encodeAll(_ encoding: AudioEncoding, outputRate: Int? = nil, chunks: Int = 3) throws -> (Data, [Data]) {
        let encoder = try StreamingAudioEncoder(encoding: encoding, inputRate: 22050, outputRate: outputRate)
        var pieces: [Data] = []
        let size = Self.tone.count / chunks
        for i in 0..<chunks { pieces.append(try encoder.encode(Array(Self.tone[(i * size)..<((i + 1) * size)]))) }
        pieces.append(try encoder.finish())
        return (pieces.reduce(Data(), +), pieces)
    }

    @Test func wavStreamsWithOneHeader() throws {
        let (all, pieces) = try encodeAll(.wav)
        #expect(pieces.dropLast().allSatisfy { !$0.isEmpty })
        #expect(all.count == 44 + Self.tone.count / 3 * 3 * 2)
        #expect(String(decoding: all.prefix(4), as: UTF8.self) == "RIFF")
        #expect(all.range(of: Data("RIFF".utf8), in: 4..<all.count) == nil)
        let decoded = try SoundFile.load(data: all).buffer
        #expect(decoded.sampleRate == 22050 && decoded.frameCount == Self.tone.count / 3 * 3)
    }

    @Test func aWAVWithNoChunksIsStillAFile() throws {
        let encoder = try StreamingAudioEncoder(encoding: .wav, inputRate: 24000)
        #expect(try encoder.finish().count == 44)
    }

    @Test func rawPCMIsResampledAsItStreams() throws {
        let (all, _) = try encodeAll(.pcm16, outputRate: 24000)
        let expected = Double(Self.tone.count / 3 * 3) * 24000 / 22050
        #expect(abs(Double(all.count / 2) - expected) <= 2)
    }

    @Test(arguments: [AudioEncoding.flac, .oggVorbis, .oggOpus, .mp3])
    func wholeFileEncodingsComeAtTheEnd(encoding: AudioEncoding) throws {
        guard encoding.isAvailable else {
            Issue.record("this libsndfile cannot write \(encoding); scripts/setup.sh installs one that can")
            return
        }
        let (all, pieces) = try encodeAll(encoding)
        #expect(pieces.dropLast().allSatisfy { $0.isEmpty })
        let decoded = try SoundFile.load(data: all).buffer
        #expect(decoded.sampleRate == encoding.outputRate(for: 22050))
        #expect(abs(decoded.duration - 0.1) < 0.03, "\(encoding): \(decoded.duration) s")
    }

    @Test func ratesEachEncodingTakes() {
        #expect(AudioEncoding.oggOpus.outputRate(for: 22050) == 24000)
        #expect(AudioEncoding.oggOpus.outputRate(for: 96000) == 48000)
        #expect(AudioEncoding.mp3.outputRate(for: 22050) == 22050)
        #expect(AudioEncoding.flac.outputRate(for: 22050) == 22050)
        #expect(AudioEncoding.wav.mimeType == "audio/wav" && AudioEncoding.oggOpus.mimeType == "audio/ogg; codecs=opus")
    }
}
