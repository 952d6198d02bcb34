import Foundation

/// Turns a stream of mono float chunks into the bytes of one encoding, with exactly one container
/// header: WAV and raw PCM go out chunk by chunk; FLAC, Ogg and MP3 are encoded whole at `finish`
/// (libsndfile writes whole files), or MP3 as it comes when asked for `incremental`ly. Used by `warble say` and the server's speech route.
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
    /// MP3 asked for incrementally: libsndfile's encoder kept open, its frames handed out as they come.
    private var compressed: SoundFileStreamEncoder?
    private var headerSent = false
    private var pending: [Float] = []
    /// WAV without resampling: the frames the stream will have, when known before the first byte.
    private let knownFrames: Int?
    private var framesWritten = 0
    /// WAV data bytes produced so far (after the header).
    private var dataBytes = 0

    /// `outputRate`: the rate to write at (nil: `encoding.outputRate(for: inputRate)`); streamed
    /// encodings are resampled chunk by chunk, whole-file ones at the end.
    ///
    /// `knownFrames`: the frames the whole stream will have, when the caller knows them before the first
    /// chunk. WAV written at the input rate then gets a header with exact sizes (instead of 0xFFFFFFFF),
    /// and the stream is held to it: audio past it is dropped, silence pads it at `finish`.
    ///
    /// `incremental`: MP3 goes out as it is encoded (frames a chunk at a time; no LAME/Xing summary at the
    /// start, which would need the whole file), as a MediaSource in a browser plays it. Other encodings ignore it.
    public init(encoding: AudioEncoding, inputRate: Int, outputRate: Int? = nil, knownFrames: Int? = nil,
                incremental: Bool = false) throws {
        self.encoding = encoding
        self.inputRate = inputRate
        self.outputRate = outputRate ?? encoding.outputRate(for: inputRate)
        self.knownFrames = encoding == .wav && self.outputRate == inputRate ? knownFrames.map { max(0, $0) } : nil
        self.pcm = try WAVEncoder(sampleFormat: .int16)
        if incremental, encoding == .mp3, let format = encoding.soundFileFormat {
            compressed = try SoundFileStreamEncoder(format: format, sampleRate: self.outputRate)
        }
        if encoding.streams || compressed != nil, self.outputRate != inputRate {
            resampler = try StreamingResampler(inputRate: inputRate, outputRate: self.outputRate)
        }
    }

    /// Bytes for the next chunk (possibly none).
    public func encode(_ samples: [Float]) throws -> Data {
        if let compressed {
            let buffer = AudioBuffer(mono: samples, sampleRate: inputRate)
            return try compressed.encode(try resampler?.process(buffer).channels[0] ?? samples)
        }
        guard encoding.streams else {
            pending.append(contentsOf: samples)
            return Data()
        }
        var data = try headerIfFirst()
        var samples = samples
        if let knownFrames {
            samples = Array(samples.prefix(max(0, knownFrames - framesWritten)))
            framesWritten += samples.count
        }
        let buffer = AudioBuffer(mono: samples, sampleRate: inputRate)
        let payload = pcm.encodeSamples(try resampler?.process(buffer) ?? buffer)
        dataBytes += payload.count
        data.append(payload)
        return data
    }

    /// Whether the WAV header sent (or to be sent) carries exact sizes.
    public var hasExactSizes: Bool { knownFrames != nil }

    /// After `finish`, for WAV whose header went out with unknown sizes (0xFFFFFFFF): the header again,
    /// with the sizes of what was written, for an output that can seek (a regular file) to write over its
    /// first bytes. nil when the header was exact already, for other encodings, and past 4 GiB.
    public func finishedHeader() -> Data? {
        guard encoding == .wav, headerSent, knownFrames == nil else { return nil }
        return try? pcm.header(sampleRate: outputRate, channelCount: 1, dataByteCount: dataBytes)
    }

    private func headerIfFirst() throws -> Data {
        guard encoding == .wav, !headerSent else { return Data() }
        headerSent = true
        return try pcm.header(sampleRate: outputRate, channelCount: 1,
                              dataByteCount: knownFrames.map { $0 * pcm.sampleFormat.bytesPerSample })
    }

    /// The last bytes: a WAV header when no chunk came, the resampler's tail, or the whole compressed file.
    public func finish() throws -> Data {
        if let compressed {
            var data = try resampler.map { try compressed.encode(try $0.finish().channels[0]) } ?? Data()
            data.append(try compressed.finish())
            return data
        }
        guard encoding.streams else {
            var buffer = AudioBuffer(mono: pending, sampleRate: inputRate)
            pending = []
            if outputRate != inputRate { buffer = try buffer.resampled(to: outputRate) }
            if let external = ExternalAudioEncoders.encoder(for: encoding) {
                return try external.encode(buffer.channels[0], sampleRate: outputRate)
            }
            guard let format = encoding.soundFileFormat else {
                throw SoundFileError.writeFailed(path: "(\(encoding.rawValue) output)",
                                                 reason: "this build has no \(encoding.rawValue) encoder")
            }
            return try SoundFile.encode(buffer, format: format)
        }
        var data = try headerIfFirst()
        let headerBytes = data.count
        if let knownFrames, framesWritten < knownFrames {
            data.append(pcm.encodeSamples(AudioBuffer(mono: [Float](repeating: 0, count: knownFrames - framesWritten),
                                                      sampleRate: inputRate)))
            framesWritten = knownFrames
        }
        if let resampler { data.append(pcm.encodeSamples(try resampler.finish())) }
        dataBytes += data.count - headerBytes
        return data
    }
}
