import Foundation
import Testing
@testable import WarbleAudio

/// Files that lie about themselves: a sample rate no recorder uses, more audio than accepted, a file
/// cut short. Each is refused or flagged before it can ask for gigabytes.
@Suite struct DecodeLimitsTests {
    static func tone(seconds: Double, rate: Int = 16000) -> AudioBuffer {
        AudioBuffer(mono: (0..<Int(seconds * Double(rate))).map { Float(sin(Double($0) * 0.05)) * 0.3 }, sampleRate: rate)
    }

    static func wav(seconds: Double, rate: Int = 16000) throws -> Data {
        try WAVEncoder(sampleFormat: .int16).encode(tone(seconds: seconds, rate: rate))
    }

    /// `data` with the WAV header's sample rate (and byte rate) replaced.
    static func claiming(rate: UInt32, _ data: Data) -> Data {
        var bytes = [UInt8](data)
        withUnsafeBytes(of: rate.littleEndian) { bytes.replaceSubrange(24..<28, with: $0) }
        withUnsafeBytes(of: (rate &* 2).littleEndian) { bytes.replaceSubrange(28..<32, with: $0) }
        return Data(bytes)
    }

    @Test(arguments: [1, 7999, 192_001, 1_000_000])
    func sampleRatesOutsideTheLimitsAreRefused(_ rate: UInt32) throws {
        let data = Self.claiming(rate: rate, try Self.wav(seconds: 0.5))
        let error = try #require(throws: SoundFileError.self) { try SoundFile.decode(data) }
        #expect(error == .unsupportedFileSampleRate(path: "<memory>", rate: Int(rate), accepted: 8000...192_000))
        #expect(error.description == "the audio declares a sample rate of \(rate) Hz; accepted are 8000 to 192000 Hz")
        #expect(error.isLimit)
    }

    @Test func longerThanTheLimitIsRefused() throws {
        let data = try Self.wav(seconds: 3)
        let error = try #require(throws: SoundFileError.self) {
            try SoundFile.load(data: data, limits: DecodeLimits(maximumSeconds: 2))
        }
        #expect(error.description == "the audio holds 3 s of audio, more than the 2 s accepted")
        #expect(try SoundFile.load(data: data, limits: DecodeLimits(maximumSeconds: 3)).buffer.duration == 3)
    }

    @Test func aFlacCutShortIsFlagged() throws {
        let whole = try SoundFile.encode(Self.tone(seconds: 4), format: .flac16)
        let complete = try SoundFile.load(data: whole)
        #expect(!complete.isTruncated)
        #expect(complete.declaredFrames == 64000)
        let cut = try SoundFile.load(data: whole.prefix(whole.count / 10))
        #expect(cut.isTruncated)
        #expect(cut.buffer.frameCount < 64000)
        #expect(cut.truncationDescription.hasPrefix("its header declares 4.0 s of audio but only"))
    }

    @Test func aWavCutShortIsReadAsFarAsItGoes() throws {
        let whole = try Self.wav(seconds: 2)
        let cut = try SoundFile.load(data: whole.prefix(whole.count / 2))
        #expect(cut.buffer.duration > 0.9 && cut.buffer.duration < 1.1)
    }

    @Test func ordinaryFilesPass() throws {
        for rate in [8000, 16000, 44100, 48000, 96000, 192_000] {
            let decoded = try SoundFile.load(data: Self.wav(seconds: 0.25, rate: rate))
            #expect(decoded.buffer.sampleRate == rate)
            #expect(!decoded.isTruncated)
        }
    }
}
