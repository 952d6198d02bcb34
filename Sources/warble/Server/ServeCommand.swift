import ArgumentParser
import Foundation
import WarbleEngine
import WarbleHistory
import WarblePhonemes
import WarbleServer

/// `warble serve`: the OpenAI-compatible speech API on this machine.
struct ServeCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the installed voices and Whisper models over OpenAI's audio API.",
        discussion: """
            Routes: POST /v1/audio/speech (text to speech), POST /v1/audio/transcriptions and \
            /v1/audio/translations (speech to text, multipart uploads as OpenAI takes them), GET /v1/models, \
            /v1/audio/voices, /health; with an API key, GET /v1/history (?limit=&after=), /v1/history/{id}, \
            /v1/history/{id}/export (a ZIP) and DELETE /v1/history/{id} serve `warble history`. Live captions: \
            POST /v1/audio/live opens a session, POST /v1/audio/live/{id}/audio takes 16 kHz 16-bit PCM, \
            GET /v1/audio/live/{id}/events streams partial, final and translation events, DELETE ends it. OpenAI's voice names (alloy, echo, nova, …) stand for installed voices \
            (see --voice-alias). OpenAI's model names whisper-1, gpt-4o-transcribe and gpt-4o-mini-transcribe \
            stand for --asr-model on transcriptions and --translation-model on translations; installed Whisper ids (\(FirstUse.englishRecognitionModel), \(FirstUse.recognitionModel)) \
            work too. stream=true on transcriptions answers OpenAI's transcript.text.delta events, a segment \
            at a time, then transcript.text.done. Whisper models load on their first request and are then shared.

            Binds 127.0.0.1 unless told otherwise; any other address needs an API key, which clients \
            send as 'Authorization: Bearer KEY'.

            Operations: GET /health/live answers 200 while the process answers; GET /health/ready answers 200 \
            once the default voice's model is loaded and a short synthesis gave audio, and 503 with a JSON \
            reason while starting, after a failed start-up check, or while draining. GET /metrics serves \
            Prometheus' text format (requests by route and status, latencies, first audio, audio produced, \
            real-time factor, queue, refusals, connections, models, resident memory); it needs the API key \
            like the other routes unless --metrics-public. The health routes never need the key.

            SIGTERM or SIGINT drains: the server is no longer ready, stops accepting connections, lets \
            requests and streams in flight finish for up to --drain-seconds, cuts off what is left, and exits \
            0. A second SIGTERM or SIGINT cuts them off at once.

            Connections that stall are closed: headers not complete within --header-timeout or a body that \
            pauses longer than --body-timeout get 408, a kept-alive connection without a request for \
            --idle-timeout is closed. Past --max-connections open connections, a new one is answered 503 \
            (Connection: close, Retry-After: 1) before its request is read, and closed. A client that hangs \
            up cancels its request, whether it waits for a slot, its first audio or the rest.

            Examples:
              warble serve --port 8880
              curl -s localhost:8880/v1/audio/speech -H 'Content-Type: application/json' \\
                -d '{"model":"tts-1","input":"Hello.","voice":"en_US-joe-medium","response_format":"wav"}' -o hello.wav
              curl -s localhost:8880/v1/audio/transcriptions -F file=@speech.wav -F model=whisper-1 \\
                -F response_format=srt
              WARBLE_API_KEY=secret warble serve --host 0.0.0.0
            """
    ) }

    @Option(help: "Address to bind (anything but loopback needs --api-key).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed when ready).")
    var port = 8880

    @Option(help: "API key clients must send as a Bearer token (default: $WARBLE_API_KEY; none on loopback).")
    var apiKey: String?

    @Option(help: "Syntheses and transcriptions running at the same time.")
    var maxConcurrent = 2

    @Option(help: "Requests waiting for a slot before the server answers 429.")
    var maxQueue = 8

    @Option(help: "Largest JSON request body (speech), in bytes (larger: 413).")
    var maxBodyBytes = 64 << 10

    @Option(help: "Largest audio upload for transcriptions and translations, in bytes (larger: 413; OpenAI's limit is 25 MB).")
    var maxUploadBytes = 25 << 20

    @Option(help: "Longest audio one speech request may produce, in seconds (longer breaks: 400; longer audio is cut off).")
    var maxAudioSeconds = 600.0

    @Option(help: "Longest audio upload decoded for transcriptions and translations, in seconds (longer: 400).")
    var maxUploadSeconds = 1800.0

    @Option(help: "Whisper model that whisper-1 means on /v1/audio/transcriptions.")
    var asrModel = ModelDefaults.current?.englishRecognition ?? ""

    @Option(help: "Multilingual Whisper model that whisper-1 means on /v1/audio/translations.")
    var translationModel = FirstUse.recognitionModel

    @Option(help: "Longest input, in characters.")
    var maxInputCharacters = 4096

    @Option(help: "Time limit per request (queueing plus synthesis or transcription), in seconds.")
    var timeLimit: Double = 120

    @Option(help: "Longest wait for a request's headers, in seconds (then 408 and the connection is closed).")
    var headerTimeout: Double = 10

    @Option(help: "Longest pause while a request body is read, in seconds (then 408 and the connection is closed).")
    var bodyTimeout: Double = 30

    @Option(help: "Longest a kept-alive connection may wait for its next request, in seconds (then it is closed).")
    var idleTimeout: Double = 60

    @Option(help: "Connections open at once; one more is answered 503 with Connection: close and closed unread.")
    var maxConnections = 512

    @Option(help: "Live caption sessions (POST /v1/audio/live) open at once; one more is answered 429.")
    var maxLiveSessions = 2

    @Option(help: "Threads for ONNX Runtime per synthesis or transcription (0: one per core).")
    var threads = 0

    @Option(help: LexiconOption.help)
    var lexicon: String?

    @Option(name: .customLong("voice-alias"), help: ArgumentHelp(
        "Make an OpenAI voice name stand for an installed voice, e.g. alloy=VOICE_ID (repeatable).",
        discussion: "Built in: alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse, marin and cedar stand for Kokoro v1.0's English voices of the same name or character when installed, else the default voice. GET /v1/audio/voices shows what each stands for.",
        valueName: "name=voice"))
    var voiceAlias: [String] = []

    @Option(help: "Size of the engine's cache of rendered sentences, in MiB (0: no cache).")
    var cacheMB = 64

    @Flag(inversion: .prefixedNo, help: "Let ONNX Runtime keep its memory arena between runs (faster; memory stays at its high-water mark).")
    var memoryArena = true

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "On SIGTERM or SIGINT, how long requests in flight may run before they are cut off, in seconds (0: at once).")
    var drainSeconds: Double = 30

    @Flag(help: ArgumentHelp(
        "Serve GET /metrics without the API key.",
        discussion: "By default /metrics needs the key like every other route (its numbers tell how busy the server is and which models are loaded); make it public only for a scraper on a network you trust."))
    var metricsPublic = false

    @Flag(help: "Do not load the default voice's model before accepting requests (ready at once, without the start-up check).")
    var noPreload = false

    @Flag(name: .customLong("history"), help: ArgumentHelp(
        "Keep every speech, transcription and translation request spoken or heard to its end in the history (text and audio).",
        discussion: "Off by default: nothing a client sends is kept unless asked. The history's routes (/v1/history) serve $WARBLE_HOME/history (or --history-dir) whenever it exists and the server has an API key."))
    var keepHistory = false

    @Option(name: .customLong("history-dir"), help: ArgumentHelp(
        "Keep and serve the history in this folder instead of $WARBLE_HOME/history.",
        discussion: "For a server whose home is read-only or shared: a folder on a local disk of this server's own (a volume per replica). A folder on a network or cluster file system (NFS, SMB/CIFS, 9p, Ceph, …) is refused: SQLite's locking and its WAL index are not safe there, and two servers writing one history would corrupt it.",
        valueName: "folder"))
    var historyDir: String?

    @Option(name: .customLong("bench-report"), help: ArgumentHelp(
        "Serve the newest benchmark report in this folder (GET /v1/bench/report; default: $WARBLE_HOME/bench).",
        discussion: "The folder's report.json, or the newest in a folder directly inside it, as `warble bench report` writes it (its default output is $WARBLE_HOME/bench).",
        valueName: "folder"))
    var benchReport: String?

    func validate() throws {
        try OptionLimits.check(threads: threads)
        guard OptionLimits.cacheMB.contains(cacheMB) else {
            throw ValidationError("--cache-mb must be from 0 to \(OptionLimits.cacheMB.upperBound), got \(cacheMB)")
        }
        guard (1...1024).contains(maxConcurrent) else {
            throw ValidationError("--max-concurrent must be from 1 to 1024, got \(maxConcurrent)")
        }
        guard (0...65_536).contains(maxQueue) else {
            throw ValidationError("--max-queue must be from 0 to 65536, got \(maxQueue)")
        }
        for alias in voiceAlias where VoiceAliases.parseOverride(alias) == nil {
            throw ValidationError("--voice-alias takes NAME=VOICE (e.g. alloy=en_US-joe-medium), got '\(alias)'")
        }
        guard timeLimit.isFinite, timeLimit > 0, timeLimit <= 86_400 else {
            throw ValidationError("--time-limit must be more than 0 and at most 86400 seconds, got \(timeLimit)")
        }
        for (flag, seconds) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout)]
        where !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            throw ValidationError("\(flag) must be more than 0 and at most 86400 seconds, got \(seconds)")
        }
        guard drainSeconds.isFinite, (0...86_400).contains(drainSeconds) else {
            throw ValidationError("--drain-seconds must be from 0 to 86400 seconds, got \(drainSeconds)")
        }
        guard (0...1024).contains(maxLiveSessions) else {
            throw ValidationError("--max-live-sessions must be from 0 to 1024, got \(maxLiveSessions)")
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be from 1 to 1000000, got \(maxConnections)")
        }
        if let historyDir {
            guard !historyDir.isEmpty else { throw ValidationError("--history-dir needs a folder") }
            do { try HistoryFileSystem.requireLocal(historyDirectory) } catch let error as HistoryError {
                throw ValidationError("--history-dir: \(error.message)")
            }
        }
        // The rest of the bounds, as the server checks them: still a mistake on the command line (usage, exit 64).
        do { try settings().validate() } catch { throw ValidationError(error.description) }
    }

    /// The server's settings from the options.
    func settings() -> ServerConfiguration {
        let key = apiKey ?? ProcessInfo.processInfo.environment["WARBLE_API_KEY"]
        var settings = ServerConfiguration(
            host: host, port: port, apiKey: key?.isEmpty == false ? key : nil, maxBodyBytes: maxBodyBytes,
            maxInputCharacters: maxInputCharacters, requestTimeLimit: .milliseconds(Int(timeLimit * 1000)),
            maxConcurrentSyntheses: maxConcurrent, maxQueuedRequests: maxQueue, maxUploadBytes: maxUploadBytes,
            maxAudioSeconds: maxAudioSeconds, maxUploadSeconds: maxUploadSeconds, defaultTranscriptionModel: asrModel, defaultTranslationModel: translationModel,
            voiceAliases: voiceAlias.compactMap(VoiceAliases.parseOverride).reduce(VoiceAliases.openAI) { $0.overriding($1.name, with: $1.voice) },
            headerTimeout: .milliseconds(Int(headerTimeout * 1000)), bodyTimeout: .milliseconds(Int(bodyTimeout * 1000)),
            idleTimeout: .milliseconds(Int(idleTimeout * 1000)), maxConnections: maxConnections)
        settings.drainTime = .milliseconds(Int(drainSeconds * 1000))
        settings.metricsPublic = metricsPublic
        settings.maxLiveSessions = maxLiveSessions
        return settings
    }

    func run() async throws {
        AACSupport.enable()
        let settings = settings()

        let engine = Engine(phonemizer: EspeakPhonemizer(), configuration: Engine.Configuration(
            cacheBytes: cacheMB << 20, threads: threads, memoryArena: memoryArena, lexicon: try LexiconOption.load(lexicon)))
        do { try settings.checkTranslationModel(installed: await engine.recognitionModels()) } catch { throw ValidationError(error.description) }
        let history = try openHistory()
        if keepHistory, let history {
            try await serve(RecordingSynthesis(engine: engine, history: history), transcriber: RecordingRecognition(engine: engine, history: history),
                            engine: engine, history: history, settings: settings)
        } else {
            try await serve(engine, transcriber: engine, engine: engine, history: history, settings: settings)
        }
    }

    private func serve(_ backend: some SpeechBackend, transcriber: any TranscriptionBackend, engine: Engine, history: ServerHistory?,
                       settings: ServerConfiguration) async throws {
        let models = ServerModelStatus(engine: engine)
        let server = SpeechServer(backend: backend, transcriber: transcriber, voiceLibrary: ServerVoiceLibrary(engine: engine),
                                  translator: ServerTranslator(engine: engine), history: history, models: models,
                                  modelLibrary: ServerModelLibrary(engine: engine, settings: settings),
                                  benchReports: benchReport.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? BenchReportCommand.defaultFolder,
                                  live: engine, configuration: settings)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Once listening: the default voice's model loads (timed, for /metrics), then the readiness check's
        // short synthesis; /health/ready answers 503 until both pass (and says why when they fail).
        let preload: (@Sendable () async throws -> Void)? = noPreload ? nil : { @Sendable in try await models.loadDefault() }
        try await server.run(logLevel: logLevel, preload: preload) { port in
            FileHandle.standardError.write(Data("warble: serving on http://\(shownHost):\(port)\n".utf8))
        }
    }

    /// --history-dir, else `$WARBLE_HOME/history`.
    private var historyDirectory: URL {
        historyDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? HistoryStore.directory(home: ModelStore.defaultHome)
    }

    /// The history the routes serve: opened (made) with --history, else when it exists; a history that cannot
    /// be opened stops the server with --history and is a warning without it.
    private func openHistory() throws -> ServerHistory? {
        let directory = historyDirectory
        guard keepHistory || FileManager.default.fileExists(atPath: directory.path) else { return nil }
        do {
            return ServerHistory(store: try HistoryStore(directory: directory))
        } catch let error as HistoryError {
            if keepHistory { throw ValidationError("\(historyDir == nil ? "--history" : "--history-dir"): \(error.message)") }
            SpeechInput.note("warning: the history is not served: \(error.message)")
            return nil
        }
    }
}

/// The engine as `POST /v1/text/translations` uses it: the installed model for the pair.
struct ServerTranslator: TranslationBackend {
    let engine: Engine

    func translate(_ text: String, pair: LanguagePair) async throws -> (text: String, model: String) {
        let chosen: (id: String, translator: any TextTranslator, pair: LanguagePair)
        do { chosen = try await engine.translator(for: pair) } catch let error as ModelError where error.kind == .badModel
            && error.message.hasPrefix("no installed model translates") {
            throw ModelError(.badModel, error.message + (await TranslateTextCommand.installHint(for: pair, engine: engine)))
        }
        return (try await chosen.translator.translate(text, pair: chosen.pair), chosen.id)
    }
}
