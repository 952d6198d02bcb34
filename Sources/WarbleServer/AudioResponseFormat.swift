import WarbleAudio

/// The `response_format`s OpenAI defines, each an encoding of WarbleAudio's shared layer.
enum AudioResponseFormat: String, CaseIterable, Sendable {
    case wav, mp3, opus, aac, flac, pcm

    /// OpenAI's `pcm`: 24 kHz, 16-bit little-endian, mono, no header.
    static let pcmSampleRate = 24_000

    /// The encoding behind it.
    var encoding: AudioEncoding {
        switch self {
        case .wav: .wav
        case .mp3: .mp3
        case .opus: .oggOpus
        case .aac: .aac
        case .flac: .flac
        case .pcm: .pcm16
        }
    }

    var contentType: String { encoding.mimeType }

    /// Whether bytes go out as each chunk is synthesised (otherwise the file is encoded at the end).
    var streams: Bool { encoding.streams }

    /// Whether this server can produce it (libsndfile may lack an encoder).
    var isAvailable: Bool { encoding.isAvailable }

    /// The sample rate it is sent at for a model of `inputRate`.
    func outputRate(for inputRate: Int) -> Int {
        self == .pcm ? Self.pcmSampleRate : encoding.outputRate(for: inputRate)
    }

    /// An encoder of a model's chunks into this format.
    /// `knownFrames`: the request's length when known before the first byte (WAV then has exact sizes).
    /// `incremental`: MP3 encoded as it comes (the event stream, which a browser's MediaSource plays as it arrives).
    func encoder(inputRate: Int, knownFrames: Int? = nil, incremental: Bool = false) throws -> StreamingAudioEncoder {
        try StreamingAudioEncoder(encoding: encoding, inputRate: inputRate, outputRate: outputRate(for: inputRate),
                                  knownFrames: knownFrames, incremental: incremental)
    }

    /// The 400 for a format this server cannot produce, naming those it can.
    func unavailable(available: [AudioResponseFormat]) -> APIError {
        let why = self == .aac ? "it was built or started without its AAC encoder (libavcodec)" : "libsndfile lacks its encoder"
        return APIError.badRequest("response_format \(rawValue) is not available on this server (\(why)); use one of "
            + available.map(\.rawValue).joined(separator: ", "), param: "response_format", code: "invalid_value")
    }
}
