#if canImport(CPulseSimple)
import CPulseSimple
#endif

/// Records mono float audio from a sound server source (a microphone, or a sink's `.monitor` to hear
/// what other applications play): PulseAudio, or PipeWire through `pipewire-pulse`, by libpulse's simple
/// API, in process. `PULSE_SERVER` picks another server, as for every PulseAudio client.
///
/// Not `Sendable`: one recorder belongs to one thread. Reads block until the audio has been captured.
public final class AudioRecorder {
    public let sampleRate: Int
    /// The source recorded (nil: the server's default source).
    public let source: String?
    #if canImport(CPulseSimple)
    private var stream: OpaquePointer?
    #endif

    /// Connects to source `source` (a name from `SoundSources.list()`; nil for the default source), asking the
    /// server to deliver audio every `fragmentSeconds`. Throws `PlaybackError.noSoundServerToRecord` when no server
    /// answers and `.unknownSource` (with the sources there are) when the name is not one of them.
    public init(source: String?, sampleRate: Int = 16000, fragmentSeconds: Double = 0.05,
                applicationName: String = "warble", streamName: String = "live input") throws(PlaybackError) {
        guard (1...384_000).contains(sampleRate) else { throw .invalidSampleRate(sampleRate) }
        self.sampleRate = sampleRate
        self.source = source
        #if canImport(CPulseSimple)
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 1)
        let fragment = UInt32(max(1, Int(Double(sampleRate) * fragmentSeconds)) * MemoryLayout<Float>.size)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
                                        fragsize: fragment)
        var code: Int32 = 0
        let connection = pa_simple_new(nil, applicationName, PA_STREAM_RECORD, source, streamName, &spec, nil, &attributes, &code)
        guard let connection else {
            let reason = Self.message(code)
            if code == Int32(PA_ERR_NOENTITY.rawValue), let source {
                throw .unknownSource(source, available: (try? SoundSources.list().map(\.name)) ?? [])
            }
            throw .noSoundServerToRecord(reason)
        }
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

    /// The next `frames` samples (blocks until the server has captured them).
    public func read(frames: Int) throws(PlaybackError) -> [Float] {
        #if canImport(CPulseSimple)
        guard let stream else { throw .closed }
        guard frames > 0 else { return [] }
        var code: Int32 = 0
        var samples = [Float](repeating: 0, count: frames)
        let status = samples.withUnsafeMutableBytes { pa_simple_read(stream, $0.baseAddress, $0.count, &code) }
        guard status == 0 else { throw .failed(Self.message(code)) }
        return samples
        #else
        throw .unsupportedPlatform
        #endif
    }

    /// Disconnects (what the server holds is dropped).
    public func close() {
        #if canImport(CPulseSimple)
        guard let stream else { return }
        self.stream = nil
        pa_simple_free(stream)
        #endif
    }

    #if canImport(CPulseSimple)
    static func message(_ code: Int32) -> String {
        pa_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
    #endif
}
