#if canImport(CPulseSimple)
import CPulseSimple
#endif

/// A source the sound server can record from.
public struct SoundSource: Sendable, Equatable {
    /// The name to record from (`--source`), e.g. `alsa_input.usb-…` or `null.monitor`.
    public var name: String
    /// The server's human-readable description.
    public var description: String
    /// A sink's monitor (what is played into that sink), as opposed to an input such as a microphone.
    public var isMonitor: Bool
    /// The server's default source.
    public var isDefault: Bool

    public init(name: String, description: String, isMonitor: Bool, isDefault: Bool = false) {
        self.name = name
        self.description = description
        self.isMonitor = isMonitor
        self.isDefault = isDefault
    }
}

/// The sources of the sound server (PulseAudio, or PipeWire's PulseAudio server), from libpulse's
/// introspection API.
public enum SoundSources {
    /// Every source the server has, in its order. Throws `PlaybackError.noSoundServerToRecord` when none answers.
    public static func list(applicationName: String = "warble") throws(PlaybackError) -> [SoundSource] {
        #if canImport(CPulseSimple)
        guard let mainloop = pa_mainloop_new() else { throw .failed("cannot make a PulseAudio main loop") }
        defer { pa_mainloop_free(mainloop) }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), applicationName) else {
            throw .failed("cannot make a PulseAudio context")
        }
        defer { pa_context_unref(context) }
        guard pa_context_connect(context, nil, PA_CONTEXT_NOFLAGS, nil) >= 0 else {
            throw .noSoundServerToRecord(AudioRecorder.message(pa_context_errno(context)))
        }
        defer { pa_context_disconnect(context) }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw .noSoundServerToRecord(AudioRecorder.message(pa_context_errno(context)))
            }
            guard pa_mainloop_iterate(mainloop, 1, nil) >= 0 else { throw .noSoundServerToRecord("the main loop stopped") }
        }
        let collector = SourceCollector()
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        let server = pa_context_get_server_info(context, { _, info, userdata in
            guard let userdata else { return }
            let collector = Unmanaged<SourceCollector>.fromOpaque(userdata).takeUnretainedValue()
            collector.defaultSource = info?.pointee.default_source_name.map { String(cString: $0) }
            collector.serverDone = true
        }, box.toOpaque())
        let sources = pa_context_get_source_info_list(context, { _, info, eol, userdata in
            guard let userdata else { return }
            let collector = Unmanaged<SourceCollector>.fromOpaque(userdata).takeUnretainedValue()
            guard eol == 0, let info else { collector.sourcesDone = true; return }
            collector.sources.append(SoundSource(
                name: info.pointee.name.map { String(cString: $0) } ?? "",
                description: info.pointee.description.map { String(cString: $0) } ?? "",
                isMonitor: info.pointee.monitor_of_sink != UInt32.max))
        }, box.toOpaque())
        defer {
            if let server { pa_operation_unref(server) }
            if let sources { pa_operation_unref(sources) }
        }
        guard server != nil, sources != nil else { throw .failed(AudioRecorder.message(pa_context_errno(context))) }
        while !(collector.serverDone && collector.sourcesDone) {
            guard pa_mainloop_iterate(mainloop, 1, nil) >= 0 else { throw .failed("the sound server went away while listing sources") }
            if pa_context_get_state(context) != PA_CONTEXT_READY {
                throw .failed(AudioRecorder.message(pa_context_errno(context)))
            }
        }
        return collector.sources.map { source in
            var source = source
            source.isDefault = source.name == collector.defaultSource
            return source
        }
        #else
        throw .unsupportedPlatform
        #endif
    }
}

#if canImport(CPulseSimple)
/// What libpulse's callbacks collect (they run on this thread, inside `pa_mainloop_iterate`).
private final class SourceCollector {
    var sources: [SoundSource] = []
    var defaultSource: String?
    var serverDone = false
    var sourcesDone = false
}
#endif
