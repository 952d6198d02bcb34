import ArgumentParser
import Foundation
import WarbleAudio
import WarbleEngine

/// `warble translate`: speech in any language Whisper knows → English text → (soon) English speech.
struct TranslateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate speech into English with Whisper (text now; spoken with -o once voices are installed).",
        discussion: """
            Needs a multilingual Whisper model (default whisper-base; tools/whisper/install.sh whisper-base). \
            Prints the English text on standard output.
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

    @Option(name: .shortAndLong, help: "Write the spoken English translation to this WAV file.")
    var output: String?

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    func run() async throws {
        do {
            let whisper = try SpeechInput.whisper(model, threads: threads)
            let audio = try SpeechInput.read(input)
            let text = try await SpeechTranslation.englishText(
                of: audio, model: whisper, language: language == "auto" ? nil : language, beamSize: beamSize,
                vad: vad)
            print(text)
            if let output {
                throw ModelError(.badModel, "cannot write \(output): speaking the translation needs the English TTS "
                    + "voices, which are not installed yet (the English text is printed above)"
                    + (voice.map { "; voice '\($0)' was asked for" } ?? ""))
            }
        } catch let error as ModelError {
            // The message says what was wrong and what to do; no usage text after it.
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}

/// The text half of speech → text → speech translation, shared by the command and the server.
enum SpeechTranslation {
    static func englishText(of audio: AudioBuffer, model: WhisperModel, language: String?, beamSize: Int,
                            vad: Bool) async throws -> String {
        let recognizer = WhisperRecognizer(model: model)
        guard vad else { return try await recognizer.translateToEnglish(audio, language: language, beamSize: beamSize) }
        let options = TranscriptionOptions(language: language, task: .translate, beamSize: beamSize)
        var text = ""
        for try await segment in try VADLoader.filter(recognizer).transcribe(audio, options: options) {
            text += segment.text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Silero VAD from the model store.
enum VADLoader {
    static func filter(_ recognizer: WhisperRecognizer) throws -> VoiceActivityFilter<WhisperRecognizer> {
        let installed: InstalledModel
        do {
            installed = try ModelStore().model("silero-vad")
        } catch {
            throw ModelError(.badModel, "--vad needs Silero VAD, which is not installed; install it with: "
                + "scripts/models/silero-vad.sh")
        }
        return VoiceActivityFilter(recognizer: recognizer, vad: try SileroVAD(directory: installed.directory))
    }
}
