import Foundation

/// Turns a stream of mono float chunks into the bytes of one encoding, with exactly one container
/// header: WAV and raw PCM go out chunk by chunk; FLAC, Ogg and MP3 are encoded whole at `finish`
/// (libsndfile writes whole files). Used by `warble say` and the server's speech route.
///
/// Not `Sendable`: it owns resampler state and belongs to the one task that writes the output.
public final class StreamingAudioEncoder {
    public let encoding: AudioEncoding
    /// The rate of the chunks given (every chunk has it).
    public let inputRate: Int
    /// The rate of the bytes produced.
    public let outputRate: Int
    private let pcm: WAVEncoder
    private var resampler: StreamingResampler?
    private var headerSent = false
    private var pending: [Float] = []

    /// `outputRate`: the rate to write at (nil: `encoding.outputRate(for: inputRate)`); streamed
    /// encodings are resampled chunk by chunk, whole-file ones at the end.
    public init(encoding: AudioEncoding, inputRate: Int, outputRate: Int? = nil) throws {
        self.encoding = encoding
        self.inputRate = inputRate
        self.outputRate = outputRate ?? encoding.outputRate(for: inputRate)
        self.pcm = try WAVEncoder(sampleFormat: .int16)
        if encoding.streams, self.outputRate != inputRate {
            resampler = try StreamingResampler(inputRate: inputRate, outputRate: self.outputRate)
        }
    }

    /// Bytes for the next chunk (possibly none).
    public func encode(_ samples: [Float]) throws -> Data {
        guard encoding.streams else {
            pending.append(contentsOf: samples)
            return Data()
        }
        var data = Data()
        if encoding == .wav, !headerSent {
            data = try pcm.header(sampleRate: outputRate, channelCount: 1, dataByteCount: nil)
            headerSent = true
        }
        let buffer = AudioBuffer(mono: samples, sampleRate: inputRate)
        data.append(pcm.encodeSamples(try resampler?.process(buffer) ?? buffer))
        return data
    }

    /// The last bytes: a WAV header when no chunk came, the resampler's tail, or the whole compressed file.
    public func finish() throws -> Data {
        guard encoding.streams else {
            var buffer = AudioBuffer(mono: pending, sampleRate: inputRate)
            pending = []
            if outputRate != inputRate { buffer = try buffer.resampled(to: outputRate) }
            guard let format = encoding.soundFileFormat else { return Data() }
            return try SoundFile.encode(buffer, format: format)
        }
        var data = Data()
        if encoding == .wav, !headerSent {
            data = try pcm.header(sampleRate: outputRate, channelCount: 1, dataByteCount: nil)
            headerSent = true
        }
        if let resampler { data.append(pcm.encodeSamples(try resampler.finish())) }
        return data
    }
}
