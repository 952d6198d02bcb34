import ArgumentParser
import Foundation
import WarbleAudio
import WarbleEngine

/// `warble bench asr`: one speech recognition model on audio files through the engine, the way `warble transcribe`
/// runs it (scripts/bench-asr-families.sh runs it next to sherpa-onnx).
struct BenchASRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asr",
        abstract: "Load time, recognition time per second of audio and the time outside ONNX Runtime of a recognition model.",
        discussion: """
            Prints one JSON object. Times are wall-clock seconds; each file is recognised once to warm up, then \
            --runs times (the median run of each file counts). run_s is the time inside ONNX Runtime's Run (the \
            engine's run counter), outside_run_s the rest: audio decoding aside, the front end, decoding and the \
            engine. The files are read (and resampled by the recogniser) before timing starts.
            """
    )

    @Option(help: "Speech recognition model id (see `warble models`).")
    var model: String

    @Argument(help: "Audio files.")
    var files: [String]

    @Option(help: "Timed runs per file (the median counts).")
    var runs = 3

    @Option(help: "Intra-op threads for ONNX Runtime.")
    var threads = 1

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one audio file") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        try OptionLimits.check(threads: threads)
    }

    func run() async throws {
        let engine = Engine(phonemizer: nil, configuration: Engine.Configuration(idleUnloadAfter: nil, threads: threads))
        var report = BenchASRReport(model: model, threads: threads, runs: runs)
        let loadStart = ContinuousClock.now
        _ = try await engine.recognizer(for: model)
        report.load_s = (ContinuousClock.now - loadStart).seconds
        let clips = try files.map { try SpeechInput.read($0) }
        var seconds = 0.0, inside = 0.0
        for clip in clips {
            _ = try await Self.transcribe(clip, model: model, engine: engine)
            var timed: [(seconds: Double, run: Double)] = []
            for _ in 0..<runs {
                RuntimeDiagnostics.startCountingRuns()
                let elapsed = try await Self.transcribe(clip, model: model, engine: engine)
                timed.append((elapsed, RuntimeDiagnostics.stopCountingRuns().seconds))
            }
            let median = timed.sorted { $0.seconds < $1.seconds }[timed.count / 2]
            seconds += median.seconds
            inside += median.run
            report.audio_s += clip.duration
        }
        report.transcribe_s = seconds
        report.run_s = inside
        report.outside_run_s = seconds - inside
        report.seconds_per_audio_second = seconds / max(report.audio_s, 1e-9)
        report.peak_rss_kib = ProcessMemory.peakResidentKiB ?? 0
        print(try WarbleJSON.string(report))
    }

    private static func transcribe(_ audio: AudioBuffer, model: String, engine: Engine) async throws -> Double {
        let start = ContinuousClock.now
        for try await _ in engine.transcribe(audio, model: model, options: TranscriptionOptions(beamSize: 1)) {}
        return (ContinuousClock.now - start).seconds
    }
}

/// What `warble bench asr` prints (snake_case keys, shared with tools/sensevoice/bench.py).
struct BenchASRReport: Encodable {
    var impl = "swift"
    var model: String
    var threads: Int
    var runs: Int
    var load_s = 0.0
    var audio_s = 0.0
    var transcribe_s = 0.0
    var run_s = 0.0
    var outside_run_s = 0.0
    var seconds_per_audio_second = 0.0
    var peak_rss_kib = 0
}
