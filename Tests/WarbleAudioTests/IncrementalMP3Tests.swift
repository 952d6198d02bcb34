import Foundation
import Testing
@testable import WarbleAudio

/// MP3 encoded as it comes (the server's event stream, which a browser's MediaSource plays as it arrives):
/// bytes come out before the end, and all of them together are one MP3 file of the audio's length.
@Suite struct IncrementalMP3Tests {
    /// 3 s of a 220 Hz tone at 22.05 kHz, in ten chunks.
    static let chunks: [[Float]] = (0..<10).map { chunk in
        (0..<6615).map { Float(0.4 * sin(2 * Double.pi * 220 * Double(chunk * 6615 + $0) / 22050)) }
    }

    @Test(.enabled(if: SoundFile.canWrite(.mp3), "this libsndfile has no MP3 encoder"))
    func framesGoOutAsTheyAreMadeAndMakeOneFile() throws {
        let encoder = try StreamingAudioEncoder(encoding: .mp3, inputRate: 22050, incremental: true)
        var pieces: [Data] = []
        for chunk in Self.chunks { pieces.append(try encoder.encode(chunk)) }
        let tail = try encoder.finish()
        // LAME holds back about a frame: every chunk after the first has given bytes.
        #expect(pieces.dropFirst().allSatisfy { !$0.isEmpty })
        #expect(pieces.reduce(0) { $0 + $1.count } > tail.count)
        let file = pieces.reduce(Data(), +) + tail
        let decoded = try SoundFile.load(data: file).buffer
        #expect(decoded.sampleRate == 22050)
        // The encoder's delay and padding: within two frames (1,152 samples at this rate) of 3 s.
        #expect(abs(decoded.frameCount - 66150) <= 2 * 1152, "decoded \(decoded.frameCount) frames")
        // The tone survives: RMS of a 0.4 sine is 0.283.
        let samples = decoded.channels[0].dropFirst(4000).prefix(44100)
        let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot()
        #expect(abs(rms - 0.283) < 0.03, "rms \(rms)")
    }

    @Test(.enabled(if: SoundFile.canWrite(.mp3), "this libsndfile has no MP3 encoder"))
    func resampledWhenTheRateIsNotAnMP3Rate() throws {
        // 20 kHz is no MP3 rate: the encoder writes 22.05 kHz, resampled as it streams.
        let encoder = try StreamingAudioEncoder(encoding: .mp3, inputRate: 20000, incremental: true)
        #expect(encoder.outputRate == 22050)
        var file = Data()
        for chunk in Self.chunks { file.append(try encoder.encode(chunk)) }
        file.append(try encoder.finish())
        let decoded = try SoundFile.load(data: file).buffer
        #expect(decoded.sampleRate == 22050)
        #expect(abs(Double(decoded.frameCount) - 66150 * 22050 / 20000) <= 2 * 1152 + 100)
    }

    @Test func withoutIncrementalMP3IsStillWholeAtTheEnd() throws {
        guard SoundFile.canWrite(.mp3) else { return }
        let encoder = try StreamingAudioEncoder(encoding: .mp3, inputRate: 22050)
        #expect(try encoder.encode(Self.chunks[0]).isEmpty)
        #expect(try !encoder.finish().isEmpty)
    }
}
