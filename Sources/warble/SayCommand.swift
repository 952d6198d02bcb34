import ArgumentParser
import Foundation
import WarbleEngine
import WarbleText

/// `warble say`: text or SSML in, speech out, streamed as it is produced.
struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak text or SSML into an audio file, standard output or the speakers.",
        discussion: """
            TEXT may also come on standard input (leave it out, or give -). SSML is recognised by a \
            leading <speak> or forced with --ssml. Audio is written as it is produced: with -o - the first \
            sentence is on standard output while the rest is still being synthesised.

            Examples:
              warble say "Hello there." -o hello.wav
              echo "<speak>Wait <break time='500ms'/> now.</speak>" | warble say -o - > out.wav
              warble say --voice kokoro-jm_kumo --rate 1.2 "Faster, please." -o fast.flac
            """
    )

    @Argument(help: "The text to speak (standard input when left out or '-').")
    var text: String?

    @Option(help: "Voice id (see `warble voices`); the default voice when left out.")
    var voice: String?

    @Flag(help: "Treat the input as SSML (otherwise detected from a leading <speak>).")
    var ssml = false

    @Option(help: "Speaking rate factor: 1 is normal, 2 twice as fast (0.25 to 4).")
    var rate: Double = 1

    @Option(help: "Volume factor: 1 is unchanged, 0 silent (0 to 4).")
    var volume: Double = 1

    @Option(help: "Silence between sentences, in seconds.")
    var sentencePause: Double = 0.25

    @Option(name: [.short, .customLong("output")], help: "Output file, or - for standard output.")
    var output: String?

    @Option(help: "Audio format: wav, flac, ogg, mp3 or raw (16-bit PCM); from the file name when left out.")
    var format: OutputFormat?

    @Flag(help: "Play through the default audio device (as well as writing -o, if given).")
    var play = false

    @Option(help: LexiconOption.help)
    var lexicon: String?

    @Option(help: "Threads for ONNX Runtime (0: automatic; with two cores or more, the next sentence is rendered while the current one is out, each on half the cores).")
    var threads = 0

    @Flag(name: .shortAndLong, help: "No progress or summary on standard error.")
    var quiet = false

    func validate() throws {
        try OptionLimits.check(threads: threads)
        guard (0.25...4).contains(rate) else { throw ValidationError("--rate must be between 0.25 and 4, got \(rate)") }
        guard (0...4).contains(volume) else { throw ValidationError("--volume must be between 0 and 4, got \(volume)") }
        guard sentencePause >= 0, sentencePause <= 10 else {
            throw ValidationError("--sentence-pause must be between 0 and 10 seconds")
        }
    }

    func run() async throws {
        let input = try InputText.read(text)
        let isSSML = ssml || SSMLParser.isSSML(input)
        let engine = EngineFactory.make(threads: threads, lexicon: try LexiconOption.load(lexicon))
        let voice = try await engine.voice(voice)
        let request = SynthesisRequest(text: input, isSSML: isSSML, voice: voice.id, rate: rate, volume: volume,
                                       sentencePause: sentencePause)

        let path = output ?? (play ? nil : "warble.wav")
        let chosenFormat = format ?? path.flatMap { OutputFormat(fileName: $0) } ?? .wav
        var sinks: [any AudioSink] = []
        if let path { sinks.append(try AudioSinks.make(path: path, format: chosenFormat)) }
        var player: Player?
        if play { player = try Player.start(sampleRate: voice.sampleRate) }

        let progress = Progress(totalBytes: input.utf8.count, enabled: !quiet && input.utf8.count > 2000)
        var seconds = 0.0
        for try await chunk in engine.synthesize(request) {
            for index in sinks.indices { try sinks[index].write(chunk.samples, sampleRate: chunk.sampleRate) }
            try player?.write(chunk.samples, sampleRate: chunk.sampleRate)
            seconds += chunk.duration
            for case .sentence(let range, _) in chunk.events { progress.update(done: range.upperBound, seconds: seconds) }
        }
        for index in sinks.indices { try sinks[index].finish() }
        try player?.finish()
        progress.finish()
        if !quiet, let path, path != "-" {
            FileHandle.standardError.write(Data(String(format: "warble: wrote %@ (%.1f s of audio, %@, voice %@)\n",
                                                       path, seconds, chosenFormat.rawValue, voice.id).utf8))
        }
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
