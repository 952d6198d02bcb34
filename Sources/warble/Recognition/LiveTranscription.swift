import ArgumentParser
import Foundation
import WarbleEngine
import WarblePlayback

/// Live input for `warble transcribe --live` (and, through `LiveTranscriber`, `warble translate --live`):
/// options, the source listing, and captions printed as segments are recognised.
struct LiveInputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Caption live audio from the sound server (PulseAudio or PipeWire) until Ctrl-C.",
                             discussion: "Silero VAD cuts the audio into speech segments as it arrives; each is "
                                 + "printed as soon as it is recognised. On a terminal a partial line shows the "
                                 + "speech in progress and is replaced by the settled line; otherwise only settled "
                                 + "lines are printed, one per segment, flushed at once. Times are seconds from the "
                                 + "start of capture. Ctrl-C stops capturing, recognises the speech already heard, "
                                 + "prints it and exits 0 (a second Ctrl-C exits at once)."))
    var live = false

    @Option(help: ArgumentHelp("With --live: the source to record (see --list-sources); default: the server's default "
                                   + "source (usually the microphone). A sink's NAME.monitor captions what other "
                                   + "applications play.", valueName: "name"))
    var source: String?

    @Flag(help: "List the sound server's sources (name, monitor or input, description) and exit.")
    var listSources = false

    @Option(help: ArgumentHelp("With --live: stop capturing after this many seconds (then finish as on Ctrl-C).",
                               valueName: "seconds"))
    var maxSeconds: Double?

    func validate(files: [String]) throws {
        if live, !files.isEmpty { throw ValidationError("--live reads the sound server, not files: give either --live or files") }
        if source != nil, !live { throw ValidationError("--source needs --live") }
        if maxSeconds != nil, !live { throw ValidationError("--max-seconds needs --live") }
        if let maxSeconds, !(maxSeconds > 0 && maxSeconds <= 1e7) { throw ValidationError("--max-seconds must be more than 0 and at most 10000000, got \(maxSeconds)") }
        if listSources, live || !files.isEmpty { throw ValidationError("--list-sources takes no files and no --live") }
    }

    /// Checks that Silero VAD, which cuts live audio into segments, is installed.
    static func requireDetector(in engine: Engine) async throws {
        guard await !engine.models(offering: .voiceActivity).isEmpty else {
            throw ModelError(.badModel, "--live needs Silero VAD, which is not installed; install it with: "
                + ModelDefaults.pullCommand(\.voiceActivity))
        }
    }

    /// Starts capturing `--source` (for at most `--max-seconds`).
    func startCapture() throws -> LiveCapture {
        do {
            return try LiveCapture(source: source, maxSeconds: maxSeconds)
        } catch {
            throw ModelError(.badInput, "\(error)")
        }
    }

    /// Why a capture ended, for the closing summary.
    func stopReason(_ interruption: Interruption) -> String {
        interruption.signal != nil ? "stopped by a signal" : (maxSeconds != nil ? "--max-seconds reached" : "input ended")
    }

    /// Prints the sources as a table.
    static func printSources() throws {
        let sources: [SoundSource]
        do {
            sources = try SoundSources.list()
        } catch {
            throw ModelError(.badInput, "\(error)")
        }
        if sources.isEmpty {
            print("the sound server has no sources")
            return
        }
        let width = sources.map(\.name.count).max() ?? 0
        for source in sources {
            let kind = source.isMonitor ? "monitor" : "input"
            print(source.name.padding(toLength: max(width, 4), withPad: " ", startingAt: 0) + "  "
                + kind.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + source.description
                + (source.isDefault ? " (default)" : ""))
        }
    }
}

/// Runs live captions: capture → `LiveTranscriber` → settled lines (and partials on a terminal).
struct LiveCaptions {
    let options: LiveInputOptions
    let format: TranscriptFormat
    let words: Bool
    let output: String?
    let quiet: Bool
    /// Keep the session (the captions, not the audio) in the history at the end.
    let keepHistory: Bool

    func run(engine: Engine, model: String, transcription: TranscriptionOptions) async throws {
        let started = ContinuousClock.now
        let capture = try options.startCapture()
        let interruption = Interruption.watch { capture.stop() }
        defer { interruption.stop() }
        let writer = try CaptionWriter(format: format, words: words, path: output)
        // Partials only where they are seen: otherwise the recogniser is left to the finished segments.
        let transcriber = try await engine.liveTranscriber(model: model, options: LiveRecognitionOptions(
            transcription: transcription, partialInterval: writer.showsPartials ? 1 : nil))
        if !quiet {
            SpeechInput.note("listening to \(options.source ?? "the default source")" + (writer.showsPartials ? "" : "; ")
                + (writer.showsPartials ? " (Ctrl-C ends)" : "captions are printed as each segment is recognised (Ctrl-C ends)"))
        }
        var utterances = 0, lastEnd = 0.0
        var heard: [TranscriptSegment] = []
        for try await event in transcriber.events(from: capture.chunks) {
            switch event {
            case .partial(let partial):
                writer.partial(partial.text)
            case .utterance(let utterance):
                lastEnd = utterance.end
                guard !utterance.segments.isEmpty else { writer.clearPartial(); continue }
                utterances += 1
                heard += utterance.segments
                try writer.settle(utterance.segments)
            }
        }
        writer.clearPartial()
        try writer.close()
        if !quiet {
            let why = options.stopReason(interruption)
            SpeechInput.note(String(format: "live: %d segment%@ recognised in %.1f s of audio, the last ending at %.1f s (%@)",
                                    utterances, utterances == 1 ? "" : "s", capture.capturedSeconds, lastEnd, why))
        }
        if !heard.isEmpty {
            HistoryRecorder.record(HistoryRecorder.transcription(file: nil, segments: heard, duration: capture.capturedSeconds, model: model,
                                                                 seconds: (ContinuousClock.now - started).seconds),
                                   enabled: keepHistory)
        }
    }
}

/// Writes settled captions as they come (text, srt, vtt, or one JSON object per line), and on a
/// terminal a partial line rewritten in place.
final class CaptionWriter {
    let format: TranscriptFormat
    let words: Bool
    let handle: FileHandle
    let showsPartials: Bool
    var cueNumber = 0
    var partialShown = false
    /// Whether the writer opened the handle (a file of `path`), and closes it.
    private var ownsHandle = false

    /// `handle`: where the captions go instead of standard output (or `path`).
    init(format: TranscriptFormat, words: Bool, path: String?, handle other: FileHandle? = nil) throws {
        self.format = format
        self.words = words
        if let other {
            handle = other
            showsPartials = false
        } else if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw ModelError(.badInput, "cannot write \(path)")
            }
            self.handle = handle
            ownsHandle = true
            showsPartials = isatty(STDOUT_FILENO) != 0
        } else {
            handle = FileHandle.standardOutput
            showsPartials = isatty(STDOUT_FILENO) != 0
        }
        if format == .vtt { write("WEBVTT\n\n") }
    }

    func partial(_ text: String) {
        guard showsPartials else { return }
        let columns = TextTable.available()
        var line = "… " + text
        if line.count >= columns { line = "… " + String(text.suffix(max(1, columns - 3))) }
        FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + line).utf8))
        partialShown = true
    }

    func clearPartial() {
        guard partialShown else { return }
        FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
        partialShown = false
    }

    func settle(_ segments: [TranscriptSegment]) throws {
        clearPartial()
        let cues = words ? TranscriptFormat.wordCues(segments) : segments
        var text = ""
        switch format {
        case .text where words:
            text = cues.map { String(format: "%.2f\t%.2f\t", $0.start, $0.end) + $0.text + "\n" }.joined()
        case .text:
            text = segments.map { $0.text.trimmingCharacters(in: .whitespaces) + "\n" }.joined()
        case .srt:
            for cue in cues {
                cueNumber += 1
                text += TranscriptRendering.subRip([cue]).replacingOccurrences(of: "1\n", with: "\(cueNumber)\n", options: .anchored) + "\n"
            }
        case .vtt:
            text = cues.map { TranscriptRendering.webVTT([$0]).dropFirst("WEBVTT\n\n".count) + "\n" }.joined()
        case .json:
            for segment in segments { text += try WarbleJSON.string(segment) + "\n" }
        }
        write(text)
    }

    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    func close() throws {
        if ownsHandle { try handle.close() }
    }
}
