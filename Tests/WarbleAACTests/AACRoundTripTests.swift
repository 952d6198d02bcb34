import Foundation
import Testing
import WarbleAAC
import WarbleAudio

/// AAC written by WarbleAAC is read back by FFmpeg's decoder: every ADTS frame parses, the rate and
/// length are kept (plus the encoder's priming frame), and a tone comes back as that tone.
@Suite struct AACRoundTripTests {
    static func tone(_ hertz: Double, rate: Int, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(0.4 * sin(2 * Double.pi * hertz * Double($0) / Double(rate))) }
    }

    @Test(arguments: [22050, 24000, 16000])
    func aToneComesBack(rate: Int) throws {
        let input = Self.tone(440, rate: rate, seconds: 1.5)
        let data = try AACEncoder().encode(input, sampleRate: rate)
        #expect(data.prefix(2) == Data([0xFF, 0xF1]))
        let (output, decodedRate) = try AACDecoder.decode(data)
        #expect(decodedRate == rate)
        // The encoder primes with 1024 samples and pads the last frame.
        #expect(output.count >= input.count && output.count <= input.count + 3 * 1024, "\(output.count) for \(input.count)")
        // Aligned past the priming frame, the tone is there at most a few percent off.
        let aligned = Array(output.dropFirst(1024).prefix(input.count))
        var signal = 0.0, noise = 0.0
        for (a, b) in zip(aligned, input).dropFirst(2048).dropLast(2048) {
            signal += Double(b * b)
            noise += Double((a - b) * (a - b))
        }
        let snr = 10 * log10(signal / max(noise, 1e-12))
        #expect(snr > 20, "SNR \(snr) dB")
    }

    @Test func unsupportedRatesAndBrokenStreamsAreClearErrors() throws {
        #expect(throws: AACError.self) { try AACEncoder().encode([0, 0], sampleRate: 22051) }
        let data = try AACEncoder().encode(Self.tone(440, rate: 24000, seconds: 0.5), sampleRate: 24000)
        #expect(throws: AACError.self) { try AACDecoder.decode(data.prefix(data.count - 10)) }
        #expect(throws: AACError.self) { try AACDecoder.decode(Data("not aac".utf8)) }
    }

    @Test func registeringMakesTheEncodingAvailable() throws {
        #expect(AACEncoder.register())
        #expect(AudioEncoding.aac.isAvailable)
        #expect(AudioEncoding.aac.outputRate(for: 22050) == 22050)
        let encoder = try StreamingAudioEncoder(encoding: .aac, inputRate: 22050)
        _ = try encoder.encode(Self.tone(300, rate: 22050, seconds: 0.3))
        let file = try encoder.finish()
        #expect(try AACDecoder.decode(file).sampleRate == 22050)
    }

    /// What Warble writes it reads: with the decoder registered, `SoundFile.load` (which `warble transcribe` and
    /// the transcription routes use) reads an .aac file and AAC bytes that libsndfile cannot, within the limits.
    @Test func soundFileReadsAACOnceTheDecoderIsRegistered() throws {
        #expect(AACDecoder.register())
        let data = try AACEncoder().encode(Self.tone(440, rate: 16000, seconds: 2), sampleRate: 16000)
        let fromMemory = try SoundFile.load(data: data)
        #expect(fromMemory.buffer.sampleRate == 16000 && fromMemory.buffer.channelCount == 1)
        #expect(abs(fromMemory.buffer.duration - 2) < 0.2, "\(fromMemory.buffer.duration) s")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("warble-\(UUID().uuidString).aac")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        #expect(try SoundFile.load(contentsOf: file).buffer.frameCount == fromMemory.buffer.frameCount)
        // The limits hold as they do for libsndfile's formats.
        #expect { try SoundFile.load(data: data, limits: DecodeLimits(maximumSeconds: 1)) } throws: { error in
            (error as? SoundFileError)?.isTooLong == true
        }
        #expect { try SoundFile.load(data: data, limits: DecodeLimits(sampleRates: 22050...48000)) } throws: { error in
            "\(error)".contains("16000")
        }
        // Not AAC, not anything: still libsndfile's clear error.
        #expect { try SoundFile.load(data: Data("not audio at all".utf8)) } throws: { "\($0)".contains("<memory>") }
    }
}
