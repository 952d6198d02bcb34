import Foundation
import WarbleAudio

/// Turns a request's audio chunks into the bytes of one `response_format` stream, with exactly one
/// container header. wav and pcm go out chunk by chunk; mp3, opus and flac are encoded whole at the
/// end (libsndfile writes whole files), so the client gets them when synthesis finishes.
///
/// Not `Sendable`: it owns resampler state and belongs to the one task that writes the response.
final class AudioStreamEncoder {
    let format: AudioResponseFormat
    /// The model's sample rate (every chunk has it).
    let inputRate: Int
    private let wav: WAVEncoder
    private var resampler: StreamingResampler?
    private var headerSent = false
    private var pending: [Float] = []

    init(format: AudioResponseFormat, inputRate: Int) throws {
        self.format = format
        self.inputRate = inputRate
        self.wav = try WAVEncoder(sampleFormat: .int16)
        if format == .pcm, inputRate != AudioResponseFormat.pcmSampleRate {
            resampler = try StreamingResampler(inputRate: inputRate, outputRate: AudioResponseFormat.pcmSampleRate)
        }
    }

    /// The sample rate of the bytes produced.
    var outputRate: Int { Self.outputRate(format: format, inputRate: inputRate) }

    /// The sample rate `format` is sent at for a model of `inputRate`.
    static func outputRate(format: AudioResponseFormat, inputRate: Int) -> Int {
        switch format {
        case .pcm: AudioResponseFormat.pcmSampleRate
        case .opus: opusRate(for: inputRate)
        case .wav, .mp3, .flac: inputRate
        }
    }

    /// Bytes for the next chunk (possibly none).
    func encode(_ samples: [Float]) throws -> Data {
        switch format {
        case .wav:
            var data = Data()
            if !headerSent {
                data = try wav.header(sampleRate: inputRate, channelCount: 1, dataByteCount: nil)
                headerSent = true
            }
            data.append(wav.encodeSamples(AudioBuffer(mono: samples, sampleRate: inputRate)))
            return data
        case .pcm:
            let buffer = AudioBuffer(mono: samples, sampleRate: inputRate)
            return wav.encodeSamples(try resampler?.process(buffer) ?? buffer)
        case .mp3, .opus, .flac:
            pending.append(contentsOf: samples)
            return Data()
        }
    }

    /// The last bytes: the resampler's tail, or the whole compressed file.
    func finish() throws -> Data {
        switch format {
        case .wav:
            return headerSent ? Data() : try wav.header(sampleRate: inputRate, channelCount: 1, dataByteCount: nil)
        case .pcm:
            guard let resampler else { return Data() }
            return wav.encodeSamples(try resampler.finish())
        case .mp3, .opus, .flac:
            var buffer = AudioBuffer(mono: pending, sampleRate: inputRate)
            pending = []
            if outputRate != inputRate { buffer = try buffer.resampled(to: outputRate) }
            guard let soundFileFormat = format.soundFileFormat else { return Data() }
            return try SoundFile.encode(buffer, format: soundFileFormat)
        }
    }

    /// Opus takes 8, 12, 16, 24 or 48 kHz: the lowest of those at or above the model's rate.
    static func opusRate(for rate: Int) -> Int {
        [8000, 12000, 16000, 24000, 48000].first { $0 >= rate } ?? 48000
    }
}
