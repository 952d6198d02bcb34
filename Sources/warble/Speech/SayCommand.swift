import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHistory
import WarbleText

/// `warble say`: text or SSML in, speech out, streamed as it is produced.
struct SayCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "say",
        abstract: "Speak text or SSML aloud, or into an audio file or standard output.",
        discussion: """
            With no -o the speech plays through the sound server (PulseAudio, or PipeWire's PulseAudio \
            service) as it is produced. TEXT may also come on standard input (leave it out, or give -). SSML \
            is recognised by a leading <speak> (or an XML declaration) or forced with --ssml. Audio is \
            written as it is produced: with -o - the first sentence is on standard output while the rest is \
            still being synthesised. The format follows --format or the file's extension (.wav .flac .ogg \
            .opus .mp3 .aiff .aac .raw); an existing file that is not audio is kept unless --force. Interrupted \
            (Ctrl-C, SIGTERM), a file keeps the audio written so far and its sizes are made right.

            Examples:
              warble say "Hello there."
              warble say "Hello there." -o hello.wav
              echo "<speak>Wait <break time='500ms'/> now.</speak>" | warble say -o - > out.wav
              warble say --voice \(ModelDefaults.current?.voice ?? "ID") --rate 1.2 "Faster, please." -o fast.flac
              warble say --voice "jf_alpha(0.7)+jm_kumo(0.3)" "A blend of two voices."
              warble say --events json "<speak>One <mark name='m'/> two.</speak>" -o out.wav
            """
    ) }

    @Argument(help: "The text to speak (standard input when left out or '-').")
    var text: String?

    @Option(help: "Voice id (see `warble voices`), a Kokoro mix (jf_alpha+jm_kumo, jf_alpha(0.7)+jm_kumo(0.3)) or a Piper voice file (./NAME.onnx with NAME.onnx.json); the default voice when left out.")
    var voice: String?

    @Flag(help: "Treat the input as SSML (otherwise detected from a leading <speak>).")
    var ssml = false

    @Option(parsing: .unconditional, help: "Speaking rate factor: 1 is normal, 2 twice as fast, pauses included (0.25 to 4; within 10 % from 0.5 to 3; above 2 Piper and Kokoro are time-stretched).")
    var rate: Double = 1

    @Option(parsing: .unconditional, help: "Volume factor: 1 is unchanged, 0 silent (0 to 4).")
    var volume: Double = 1

    @Option(parsing: .unconditional, help: "Silence between sentences, in seconds (0 to 10).")
    var sentencePause: Double = 0.25

    @Option(name: [.short, .customLong("output")], help: "Output file, or - for standard output; left out, the speech plays.")
    var output: String?

    @Option(help: "Audio format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")) (raw: 16-bit PCM); from the file name when left out.")
    var format: OutputFormat?

    @Option(help: "Speaker of a multi-speaker Piper voice: a name from its speaker_id_map, or a number.")
    var speaker: String?

    @Option(parsing: .unconditional, help: "Piper's noise_scale: variation of the audio (0 to 2; the voice's own when left out).")
    var noiseScale: Double?

    @Option(parsing: .unconditional, help: "Piper's length_scale: above 1 slower, below faster (0.1 to 10; --rate divides it).")
    var lengthScale: Double?

    @Option(parsing: .unconditional, help: "Piper's noise_w: variation of phoneme durations (0 to 2).")
    var noiseW: Double?

    @Option(help: "CosyVoice 3: the seed of its sampling and noise (1986 when left out); Chatterbox Turbo: sample with this seed as the authors' PyTorch code does (greedy when left out). The same seed gives the same audio.")
    var seed: UInt64?

    @Option(help: ArgumentHelp("CosyVoice 3's instruct mode: how to speak, in words (e.g. \"Speak slowly and warmly.\").",
                               valueName: "text"))
    var instruct: String?

    @Flag(help: "CosyVoice 3's cross-lingual mode: for text in another language than the voice's clip (the clip's words stay out of the model).")
    var crossLingual = false

    @Flag(help: "Play through the sound server as well as writing -o.")
    var play = false

    @Flag(help: "Overwrite an existing file even when it is not audio.")
    var force = false

    @Option(help: "Print events as they are produced: json (one object a line: sentences, words and SSML marks with their times) on standard output, or on standard error when the audio goes there.")
    var events: EventFormat?

    @Option(help: LexiconOption.help)
    var lexicon: String?

    @Option(help: "Cores to use (0: all; with two or more, the next sentence is rendered while the current one is out, each on half of them).")
    var threads = 0

    @OptionGroup(title: "History") var history: HistoryOptIn

    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    @Flag(name: .shortAndLong, help: "No progress or summary on standard error.")
    var quiet = false

    var controls: VoiceControls {
        VoiceControls(speaker: speaker, noiseScale: noiseScale, lengthScale: lengthScale, noiseW: noiseW, seed: seed,
                      instruction: instruct, crossLingual: crossLingual)
    }

    func validate() throws {
        try OptionLimits.check(threads: threads)
        try OptionLimits.check(rate: rate, name: "--rate")
        guard volume.isFinite, (0...4).contains(volume) else { throw ValidationError("--volume must be between 0 and 4, got \(volume)") }
        do {
            try controls.validate()
        } catch { throw ValidationError(error.message.replacingOccurrences(of: "the noise scale", with: "--noise-scale")
            .replacingOccurrences(of: "the noise w", with: "--noise-w").replacingOccurrences(of: "the length scale", with: "--length-scale")
            .replacingOccurrences(of: "the instruction", with: "--instruct").replacingOccurrences(of: "cross-lingual mode", with: "--cross-lingual")) }
        guard sentencePause.isFinite, sentencePause >= 0, sentencePause <= 10 else {
            throw ValidationError("--sentence-pause must be between 0 and 10 seconds, got \(sentencePause)")
        }
    }

    func run() async throws {
        let path = output
        let chosenFormat = try OutputTarget.format(path: path, explicit: format)
        try OutputTarget.checkOverwrite(path: path, force: force)
        let input = try InputText.read(text)
        let isSSML = ssml || SSMLParser.isSSML(input)
        try await FirstUse.ensureMultilingualVoice(forVoice: voice, offline: firstUse.offline)
        let engine = EngineFactory.make(threads: threads, lexicon: try LexiconOption.load(lexicon))
        let voice = try await engine.voice(voice)
        let request = SynthesisRequest(text: input, isSSML: isSSML, voice: voice.id, rate: rate, volume: volume,
                                       sentencePause: sentencePause, controls: controls)

        // Ctrl-C or SIGTERM cancels the synthesis; what was produced is still finished properly.
        let work = Task { try await self.speak(request, voice: voice, engine: engine, format: chosenFormat, text: input) }
        let interruption = Interruption.watch { work.cancel() }
        defer { interruption.stop() }
        let outcome = try await work.value
        switch outcome {
        case .finished(let summary):
            if !quiet, let path, path != "-" { Self.note(summary) }
            if history.enabled { HistoryRecorder.record(HistoryRecorder.speech(text: input, voice: voice.id, output: path)) }
        case .interrupted(let summary):
            if !quiet { Self.note("interrupted; " + summary) }
            throw ExitCode(128 + (interruption.signal ?? SIGINT))
        }
    }

    enum Outcome: Sendable {
        case finished(String)
        case interrupted(String)
    }

    /// Synthesises `request` into the output and the speakers; cancelled, it finishes what was written.
    func speak(_ request: SynthesisRequest, voice: VoiceDescription, engine: Engine, format: OutputFormat, text: String) async throws -> Outcome {
        let voiceID = voice.id
        let speaker = try Speaker(path: output, format: format, play: play || output == nil, sampleRate: voice.sampleRate)
        let printer = events.map { EventPrinter(format: $0, text: text, toStandardError: output == "-") }
        let progress = Progress(totalBytes: text.utf8.count, enabled: !quiet && text.utf8.count > 2000)
        do {
            for try await chunk in engine.synthesize(request, voice: voice) {
                try Task.checkCancellation()
                printer?.print(chunk.events, at: speaker.seconds, sampleRate: chunk.sampleRate)
                try speaker.write(chunk)
                for case .sentence(let range, _) in chunk.events {
                    progress.update(done: range.upperBound, seconds: speaker.seconds)
                }
            }
            try Task.checkCancellation()
        } catch where Task.isCancelled {
            speaker.stopPlayback()
            try speaker.finish()
            progress.finish()
            return .interrupted(speaker.summary(format: format, voice: voiceID))
        } catch {
            speaker.stopPlayback()
            try? speaker.finish()
            throw error
        }
        try speaker.finish()
        progress.finish()
        return .finished(speaker.summary(format: format, voice: voiceID))
    }

    static func note(_ line: String) {
        FileHandle.standardError.write(Data("warble: \(line)\n".utf8))
    }
}

/// The text to speak, from the argument or standard input, checked to be UTF-8.
enum InputText {
    static func read(_ argument: String?) throws -> String {
        if let argument, argument != "-" { return argument }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else {
            let offset = firstInvalidUTF8Offset(data)
            throw ValidationError("standard input is not valid UTF-8 (first bad byte at offset \(offset))")
        }
        return text
    }

    static func firstInvalidUTF8Offset(_ data: Data) -> Int {
        var offset = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += String(scalar).utf8.count
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }
}

/// Progress on standard error for long input: how much of the text is spoken, and how much audio.
final class Progress {
    let totalBytes: Int
    let enabled: Bool
    private var lastPercent = -1
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(totalBytes: Int, enabled: Bool) {
        self.totalBytes = max(1, totalBytes)
        self.enabled = enabled
    }

    func update(done: Int, seconds: Double) {
        guard enabled else { return }
        let percent = min(100, done * 100 / totalBytes)
        guard percent != lastPercent, isTerminal || percent / 10 != lastPercent / 10 else { return }
        lastPercent = percent
        let line = String(format: "warble: %3d%% of the text, %.1f s of audio", percent, seconds)
        FileHandle.standardError.write(Data((isTerminal ? "\r" + line : line + "\n").utf8))
    }

    func finish() {
        if enabled, isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
