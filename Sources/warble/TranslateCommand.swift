import ArgumentParser
import Foundation
import WarbleAudio
import WarbleEngine

/// `warble translate`: speech in any language Whisper knows → English text → English speech.
struct TranslateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate speech into English with Whisper, and speak the translation with -o.",
        discussion: """
            Needs a multilingual Whisper model (default whisper-base; tools/whisper/install.sh whisper-base). \
            Prints the English text on standard output (on standard error with -o -, where the audio goes); \
            with -o it also speaks it with an English voice (the default voice unless --voice is given) into \
            that file, in the format its extension names (.wav .flac .ogg .opus .mp3 .aiff .raw).
            This is the speech → text → translation → speech flow, all on this machine.
            """
    )

    @Argument(help: "Audio file in any language; - reads standard input.")
    var input: String

    @Option(help: "Whisper model id (multilingual).")
    var model = "whisper-base"

    @Option(help: "Spoken language code, or auto to detect it.")
    var language = "auto"

    @Option(help: "Beam width (1: greedy).")
    var beamSize = 5

    @Flag(help: "Skip silence with Silero VAD before Whisper.")
    var vad = false

    @Option(help: "English voice for the spoken translation.")
    var voice: String?

    @Option(name: .shortAndLong, help: "Write the spoken English translation to this audio file (- for standard output).")
    var output: String?

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    func validate() throws {
        try OptionLimits.check(beamSize: beamSize)
        try OptionLimits.check(threads: threads)
        if let output {
            _ = try OutputTarget.format(path: output, explicit: nil)
            try OutputTarget.checkOverwrite(path: output, force: false)
        }
    }

    func run() async throws {
        do {
            let engine = SpeechInput.engine(threads: threads)
            try await SpeechInput.requireWhisper(model, in: engine)
            let audio = try SpeechInput.read(input)
            let text = try await SpeechTranslation.englishText(
                of: audio, engine: engine, model: model, language: language == "auto" ? nil : language,
                beamSize: beamSize, vad: vad)
            // With the audio on standard output, the text goes to standard error so that it is still seen.
            if output == "-" { SpeechInput.note("translation: \(text)") } else { print(text) }
            if let output {
                guard !text.isEmpty else {
                    throw ModelError(.badInput, "no speech was recognised in \(input), so there is nothing to speak")
                }
                try await speak(text, to: output)
            }
        } catch let error as ModelError {
            // The message says what was wrong and what to do; no usage text after it.
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}

extension TranslateCommand {
    /// Speaks the English text with an English voice into `path`, streaming as it is produced.
    func speak(_ text: String, to path: String) async throws {
        let engine = EngineFactory.make(threads: threads)
        let chosen = try await engine.voice(voice)
        guard chosen.language.lowercased().hasPrefix("en") else {
            throw ModelError(.unknownVoice, "voice '\(chosen.id)' speaks \(chosen.language); the translation is English")
        }
        var sink = try AudioSinks.make(path: path, format: try OutputTarget.format(path: path, explicit: nil))
        var seconds = 0.0
        for try await chunk in engine.synthesize(SynthesisRequest(text: text, voice: chosen.id)) {
            try sink.write(chunk)
            seconds += chunk.duration
        }
        try sink.finish()
        if path != "-" {
            SpeechInput.note(String(format: "wrote %@ (%.1f s of English speech, voice %@)", path, seconds, chosen.id))
        }
    }
}

/// The text half of speech → text → speech translation.
enum SpeechTranslation {
    /// Speech in any language Whisper knows → English text (Whisper's translate task).
    static func englishText(of audio: AudioBuffer, engine: Engine, model: String, language: String?, beamSize: Int,
                            vad: Bool) async throws -> String {
        guard await engine.recognitionModels().first(where: { $0.id == model })?.canTranslate == true else {
            throw ModelError(.unknownVoice, "\(model) is English-only and cannot translate; "
                + "use a multilingual model (--model whisper-base)")
        }
        let options = TranscriptionOptions(language: language, task: .translate, beamSize: beamSize)
        let detector = vad ? try await SpeechInput.voiceActivityDetector(in: engine) : nil
        var text = ""
        for try await segment in engine.transcribe(audio, model: model, options: options, detector: detector) {
            text += segment.text
        }
        try Task.checkCancellation()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
