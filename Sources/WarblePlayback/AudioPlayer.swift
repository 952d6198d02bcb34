#if canImport(CPulseSimple)
import CPulseSimple
#endif

/// Plays mono float audio through the sound server as it arrives: PulseAudio, or PipeWire through its
/// PulseAudio interface (`pipewire-pulse`), by libpulse's simple API, in process. `PULSE_SERVER` picks
/// another server, as for every PulseAudio client.
///
/// Not `Sendable`: one player belongs to one task. Writes block while the server's buffer is full, so
/// audio goes out at the pace it plays.
public final class AudioPlayer {
    public let sampleRate: Int
    #if canImport(CPulseSimple)
    private var stream: OpaquePointer?
    #endif

    /// Connects to the sound server; throws `PlaybackError.noSoundServer` (with the reason) when none answers.
    public init(sampleRate: Int, applicationName: String = "warble", streamName: String = "speech") throws(PlaybackError) {
        guard (1...384_000).contains(sampleRate) else { throw .invalidSampleRate(sampleRate) }
        self.sampleRate = sampleRate
        #if canImport(CPulseSimple)
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 1)
        var code: Int32 = 0
        let connection = pa_simple_new(nil, applicationName, PA_STREAM_PLAYBACK, nil, streamName, &spec, nil, nil, &code)
        guard let connection else { throw .noSoundServer(Self.message(code)) }
        stream = connection
        #else
        throw .unsupportedPlatform
        #endif
    }

    deinit {
        #if canImport(CPulseSimple)
        if let stream { pa_simple_free(stream) }
        #endif
    }

    /// Queues samples for playback (blocks while the server's buffer is full).
    public func write(_ samples: [Float]) throws(PlaybackError) {
        guard !samples.isEmpty else { return }
        #if canImport(CPulseSimple)
        guard let stream else { throw .closed }
        var code: Int32 = 0
        let status = samples.withUnsafeBytes { pa_simple_write(stream, $0.baseAddress, $0.count, &code) }
        guard status == 0 else { throw .failed(Self.message(code)) }
        #endif
    }

    /// Waits until everything written has been played, then disconnects.
    public func finish() throws(PlaybackError) {
        #if canImport(CPulseSimple)
        guard let stream else { return }
        self.stream = nil
        defer { pa_simple_free(stream) }
        var code: Int32 = 0
        guard pa_simple_drain(stream, &code) == 0 else { throw .failed(Self.message(code)) }
        #endif
    }

    /// Drops what is queued and disconnects at once (an interrupted `say`).
    public func stop() {
        #if canImport(CPulseSimple)
        guard let stream else { return }
        self.stream = nil
        var code: Int32 = 0
        _ = pa_simple_flush(stream, &code)
        pa_simple_free(stream)
        #endif
    }

    #if canImport(CPulseSimple)
    private static func message(_ code: Int32) -> String {
        pa_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
    #endif
}
