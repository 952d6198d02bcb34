import ArgumentParser
import Foundation
import WarbleAudio
import WarbleEngine
import WarbleHistory
import WarbleHub

/// `warble transcribe`: speech to text with Whisper, locally.
struct TranscribeCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "transcribe",
        abstract: "Transcribe speech (any format libsndfile reads; - for standard input) with Whisper.",
        discussion: """
            Segments are printed as they are decoded. --task translate gives English text from speech in \
            any language the model knows (multilingual models only). The model is \(FirstUse.englishRecognitionModel) when it is \
            installed (with --language auto, a multilingual model installed beside it hears the language first and \
            transcribes speech that is not English); with no Whisper model installed, \(FirstUse.recognitionModel) (multilingual) is installed \
            on first use (--offline: never; \(ModelDefaults.pull(FirstUse.englishRecognitionModel)) or \
            \(ModelDefaults.pull(FirstUse.recognitionModel)) installs them).

            Live captions: --live records the sound server (PulseAudio or PipeWire) instead of files, \
            --source NAME picks the source (a microphone, or a sink's NAME.monitor to caption what other \
            applications play; --list-sources lists them), and --max-seconds N stops after N seconds. \
            Segments are printed as they are recognised (--format json: one JSON object per line); \
            Ctrl-C ends, keeping what was heard.
            """
    ) }

    @Argument(help: "Audio files; - reads standard input.")
    var files: [String] = []

    @OptionGroup(title: "Live input") var liveInput: LiveInputOptions

    @OptionGroup var recognition: RecognitionOptions

    @Option(help: "transcribe or translate (into English).")
    var task: TranscriptionOptions.Task = .transcribe

    @Option(help: "Output format: text, srt, vtt or json.")
    var format: TranscriptFormat = .text

    @Flag(help: ArgumentHelp("Time every word (as faster-whisper's word_timestamps does).",
                             discussion: "text: a line per word (start, end, word; tab-separated); srt and vtt: a cue "
                                 + "per word; json: each segment's words with start, end and probability."))
    var wordTimestamps = false

    @Option(name: .shortAndLong, help: "Write the transcript to this file instead of standard output.")
    var output: String?

    @Flag(help: "No progress messages on standard error.")
    var quiet = false

    @OptionGroup(title: "History") var history: HistoryOptOut

    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    func validate() throws {
        try liveInput.validate(files: files)
        if liveInput.live || liveInput.listSources {
            return try recognition.validate()
        }
        if files.isEmpty { throw ValidationError("give at least one audio file (or - for standard input)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        if files.count > 1, format == .srt || format == .vtt, output != nil {
            throw ValidationError("--format \(format.rawValue) with -o takes one input file")
        }
        try recognition.validate()
    }

    func run() async throws {
        do {
            if liveInput.listSources { return try LiveInputOptions.printSources() }
            try await FirstUse.ensureRecognizer(recognition.model, command: "transcribe", offline: firstUse.offline)
            if recognition.vad || liveInput.live {
                try await FirstUse.ensureVoiceActivity(option: liveInput.live ? "--live" : "--vad", offline: firstUse.offline)
            }
            if liveInput.live { return try await runLive() }
            let engine = SpeechInput.engine(threads: recognition.threads)
            try await SpeechInput.requireWhisper(recognition.model, in: engine)
            var rendered: [String] = []
            var sessions: [NewSession] = []
            // Plain text to standard output is printed a segment at a time, as Whisper decodes it.
            let live = format == .text && output == nil
            for (index, file) in files.enumerated() {
                let started = Date()
                let audio = try SpeechInput.read(file)
                let model = try await recognition.model(for: audio, engine: engine, task: task, quiet: quiet)
                if live, files.count > 1 { Self.write((index > 0 ? "\n" : "") + "# \(file)\n") }
                let words = wordTimestamps
                let segments = try await recognition.transcribe(audio, engine: engine, model: model, task: task,
                                                                wordTimestamps: wordTimestamps, progress: quiet ? nil : file,
                                                                segment: live ? { segment in
                                                                    if let text = try? TranscriptFormat.text.render(
                                                                        [segment], language: segment.language, duration: audio.duration, words: words) {
                                                                        Self.write(text)
                                                                    }
                                                                } : nil)
                if live {
                    if history.enabled {
                        sessions.append(HistoryRecorder.transcription(file: file, segments: segments, duration: audio.duration,
                                                                      model: model, seconds: Date().timeIntervalSince(started)))
                    }
                    continue
                }
                let text = try format.render(segments, language: segments.first?.language, duration: audio.duration,
                                             words: wordTimestamps)
                if files.count > 1, format != .json {
                    rendered.append((format == .text ? "# \(file)\n" : "") + text)
                } else {
                    rendered.append(text)
                }
                if history.enabled {
                    sessions.append(HistoryRecorder.transcription(file: file, segments: segments, duration: audio.duration,
                                                                  model: model, seconds: Date().timeIntervalSince(started)))
                }
            }
            if live {
                for session in sessions { HistoryRecorder.record(session) }
                return
            }
            var all = rendered.joined(separator: format == .text ? "\n" : "")
            if format == .json, files.count > 1 { all = "[\n" + rendered.joined(separator: ",\n") + "]\n" }
            if let output {
                try Data(all.utf8).write(to: URL(fileURLWithPath: output))
                if !quiet { SpeechInput.note("wrote \(output)") }
            } else {
                FileHandle.standardOutput.write(Data(all.utf8))
            }
            for session in sessions { HistoryRecorder.record(session) }
        } catch let error as ModelError {
            // The message says what was wrong and what to do; no usage text after it.
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// `--live`: captions from the sound server until Ctrl-C or --max-seconds.
    func runLive() async throws {
        let engine = SpeechInput.engine(threads: recognition.threads)
        try await SpeechInput.requireWhisper(recognition.model, in: engine)
        try await LiveInputOptions.requireDetector(in: engine)
        let options = recognition.transcriptionOptions(task: task, wordTimestamps: wordTimestamps)
        try await LiveCaptions(options: liveInput, format: format, words: wordTimestamps, output: output, quiet: quiet,
                           keepHistory: history.enabled)
            .run(engine: engine, model: recognition.model, transcription: options)
    }
}

extension TranscriptionOptions.Task: ExpressibleByArgument {}

/// Options shared by `transcribe` and `translate`.
struct RecognitionOptions: ParsableArguments {
    @Option(name: .customLong("model"), help: ArgumentHelp("""
        Speech recognition model id (see `warble models`: Whisper, or any other recognition model pulled; \
        `warble models available --task recognition` lists them); default: \(FirstUse.englishRecognitionModel) when installed, \
        else an installed Whisper model; with none installed, \(FirstUse.recognitionModel) is installed on first use.
        """, valueName: "model"))
    var requestedModel: String?

    /// The model asked for, else the default: whisper-tiny.en when installed, else whisper-base, else the first
    /// Whisper model installed, else the one installed on first use.
    var model: String {
        if let requestedModel { return requestedModel }
        let defaults = ModelDefaults.current
        let family = defaults.flatMap { (try? ModelCatalogue.load())?.entry($0.recognition, pypi: true)?.family }
        let installed = ModelStore().scan().models.filter { $0.manifest.family == family }.map(\.manifest.id)
        return [defaults?.englishRecognition, defaults?.recognition].compactMap { $0 }.first(where: installed.contains)
            ?? installed.first ?? FirstUse.recognitionModel
    }

    @Option(help: "Spoken language code (en, de, …) or auto to detect it.")
    var language = "auto"

    @Option(help: "Beam width (1: greedy).")
    var beamSize = 5

    @Flag(help: "Skip silence with Silero VAD before Whisper.")
    var vad = false

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    @Option(help: "Decode at this temperature only (no fallback); default: 0, 0.2, … 1.0 with fallback.")
    var temperature: Double?

    @Flag(help: "Do not condition each window on the previous window's text.")
    var noPreviousText = false

    func validate() throws {
        try OptionLimits.check(beamSize: beamSize)
        try OptionLimits.check(threads: threads)
        if let temperature, !(0...1).contains(temperature) { throw ValidationError("--temperature must be 0…1") }
    }

    /// The recognition options these flags ask for.
    func transcriptionOptions(task: TranscriptionOptions.Task, wordTimestamps: Bool = false) -> TranscriptionOptions {
        var options = TranscriptionOptions(language: language == "auto" ? nil : language, task: task,
                                           beamSize: beamSize, wordTimestamps: wordTimestamps)
        if let temperature { options.temperatures = [temperature] }
        options.conditionOnPreviousText = !noPreviousText
        return options
    }

    /// The model for `audio`: `model`, unless that is the default's English-only model and nothing says the speech is
    /// English. Then a multilingual model, when one is installed, hears the language first and transcribes speech that
    /// is not English itself (an English-only model turns other languages into English-sounding text); without one,
    /// a warning says so and how to get one.
    func model(for audio: AudioBuffer, engine: Engine, task: TranscriptionOptions.Task, quiet: Bool) async throws -> String {
        let chosen = model
        let models = await engine.recognitionModels()
        guard requestedModel == nil, language == "auto", task == .transcribe,
              let english = models.first(where: { $0.id == chosen }), !english.canTranslate else { return chosen }
        guard let multilingual = models.first(where: \.canTranslate) else {
            if !quiet {
                SpeechInput.note("warning: \(chosen) understands English only: speech in another language comes out as "
                    + "English-sounding text. For other languages: warble models pull pypi:\(FirstUse.recognitionModel) "
                    + "(then it is chosen when it hears another language), or --language en to say it is English")
            }
            return chosen
        }
        guard let heard = try await engine.detectLanguage(audio, model: multilingual.id), heard.language != "en" else {
            return chosen
        }
        if !quiet {
            SpeechInput.note(String(format: "heard %@ (%.0f%%): transcribing with %@ (%@ understands English only)",
                                    heard.language, heard.probability * 100, multilingual.id, chosen))
        }
        return multilingual.id
    }

    /// Runs Whisper on `audio` with `model`, writing progress to standard error for long audio when `progress`
    /// names the input.
    func transcribe(_ audio: AudioBuffer, engine: Engine, model: String, task: TranscriptionOptions.Task, wordTimestamps: Bool = false,
                    progress: String?, segment: ((TranscriptSegment) -> Void)? = nil) async throws -> [TranscriptSegment] {
        let options = transcriptionOptions(task: task, wordTimestamps: wordTimestamps)
        let duration = audio.duration
        let report = progress != nil && duration > 60
        var segments: [TranscriptSegment] = []
        let detector = vad ? try await SpeechInput.voiceActivityDetector(in: engine) : nil
        let stream = engine.transcribe(audio, model: model, options: options, detector: detector)
        for try await next in stream {
            segments.append(next)
            segment?(next)
            if report {
                SpeechInput.note(String(format: "%@: %.1f of %.1f s", progress ?? "", min(next.end, duration), duration))
            }
        }
        if report { SpeechInput.note(String(format: "%@: done (%.1f s)", progress ?? "", duration)) }
        // A cancelled consumer ends the stream early without an error: report it as one.
        try Task.checkCancellation()
        return segments
    }
}
