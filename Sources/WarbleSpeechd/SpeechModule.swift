import Foundation
import WarbleSpeech

/// speech-dispatcher's output-module protocol over a `SpeechBackend`.
///
/// Requests are handled in order; a message is synthesised by a task of its own, so STOP and PAUSE
/// are handled while it speaks. Audio goes to the server ("server audio", what speech-dispatcher
/// 0.11 asks for), which plays it and reports marks to clients when playback reaches them; the module
/// therefore sends audio and marks in stream order.
public actor SpeechModule {
    /// What the caller does after a request.
    public enum Outcome: Sendable, Equatable {
        case proceed
        case exit(status: Int32)
    }

    private let backend: SpeechBackend
    private let output: any ModuleOutput
    private let log: ModuleLog
    private let configuration: ModuleConfiguration
    private var chooser: VoiceChooser?
    private let cache: FrameCache
    private var settings = SpeechSettings()
    private var current: (token: UtteranceToken, task: Task<Void, Never>)?
    private var reportedUnknownVoices: Set<String> = []
    private var prewarmRender: Task<[AudioFrame]?, any Error>?
    private var prewarming: Task<Void, Never>?

    public init(backend: SpeechBackend, output: any ModuleOutput, log: ModuleLog = ModuleLog(),
                configuration: ModuleConfiguration = ModuleConfiguration()) {
        self.backend = backend
        self.output = output
        self.log = log
        self.configuration = configuration
        self.cache = FrameCache(capacity: configuration.characterCacheEntries)
        if let fallback = backend.defaultVoice ?? backend.voices.first {
            chooser = VoiceChooser(voices: backend.voices, defaultVoice: fallback)
        } else {
            chooser = nil
        }
    }

    /// The settings of the next message (for tests).
    public var currentSettings: SpeechSettings { settings }

    /// Rendered characters and keys held now (for tests).
    public var cachedMessages: Int { cache.count }

    public func handle(_ request: ModuleRequest) async -> Outcome {
        if let currentVoices = backend.currentVoices, let chooser {
            let voices = await currentVoices()
            if !voices.isEmpty, voices.map(\.id) != self.chooser?.voices.map(\.id) {
                self.chooser = VoiceChooser(voices: voices, defaultVoice: chooser.defaultVoice)
            }
        }
        switch request {
        case .initialize:
            return initialize()
        case .audio(let settings):
            let method = settings.last(where: { $0.name == "audio_output_method" })?.value
            if method == "server" {
                output.send(line: Replies.audioInitialized)
            } else {
                log.warning("audio_output_method '\(method ?? "none")' refused: Warble delivers audio through the server only")
                output.send(line: Replies.multiline(code: 300, lines: ["sd_warble plays through the server only (audio_output_method=server)"],
                                                    final: "MODULE ERROR"))
            }
        case .logLevel(let settings):
            if let level = settings.last(where: { $0.name == "log_level" }).flatMap({ Int($0.value) }) { log.setLevel(level) }
            output.send(line: Replies.logLevelSet)
        case .set(let lines):
            var problems: [String] = []
            for line in lines {
                do { try settings.apply(line) } catch { problems.append(error.message) }
            }
            if problems.isEmpty {
                output.send(line: Replies.settingsReceived)
            } else {
                log.warning("SET: " + problems.joined(separator: "; "))
                output.send(line: Replies.badParameter)
            }
        case .speak(let kind, let text):
            speak(kind, text)
        case .stop:
            stop()
        case .pause:
            current?.token.requestPause()
        case .listVoices(let language, let variant):
            let lines = chooser?.listing(language: language, variant: variant) ?? []
            output.send(line: lines.isEmpty ? Replies.cantListVoices : Replies.multiline(code: 200, lines: lines, final: "OK VOICE LIST SENT"))
        case .debug(let line):
            output.send(line: line.contains("OFF") ? "200 OK DEBUGGING OFF" : "200 OK DEBUGGING ON")
        case .quit:
            stop()
            output.send(line: Replies.quit)
            return .exit(status: 0)
        case .unknown(let line):
            log.warning("unknown command '\(line)'")
            output.send(line: Replies.unknownCommand)
        }
        return .proceed
    }

    // MARK: INIT

    private func initialize() -> Outcome {
        for warning in configuration.warnings { log.warning("configuration: \(warning)") }
        guard let chooser else {
            output.send(line: Replies.multiline(code: 399, lines: ["no Warble voices are installed (install the default one with: \(ModelDefaults.pullCommand(\.voice)), then run warble doctor)"],
                                                final: "ERR CANT INIT MODULE"))
            return .exit(status: 1)
        }
        let voices = chooser.voices.map(\.id).joined(separator: ", ")
        log.info("voices: \(voices); default \(chooser.defaultVoice.id)")
        output.send(line: Replies.multiline(code: 299, lines: ["Warble: \(chooser.voices.count) voice\(chooser.voices.count == 1 ? "" : "s"), default \(chooser.defaultVoice.id)"],
                                            final: "OK LOADED SUCCESSFULLY"))
        if configuration.prewarm { prewarm(chooser.defaultVoice.id) }
        return .proceed
    }

    /// The characters rendered ahead at INIT with the default settings: what a screen reader echoes most.
    static let prewarmedCharacters = Array("abcdefghijklmnopqrstuvwxyz0123456789").map(String.init)

    /// Loads the default voice in the background, then renders and caches `prewarmedCharacters` one at
    /// a time while no message is spoken; a message that comes in cancels the rendering in progress
    /// (it is done again later), so that prewarming never delays speech.
    private func prewarm(_ voice: String) {
        let plans = Self.prewarmedCharacters.map {
            UtterancePlan.make(kind: .character, text: $0, settings: SpeechSettings(), voice: voice,
                               soundIconFolder: configuration.soundIconFolder)
        }
        let cache = self.cache
        let log = self.log
        prewarming = Task.detached(priority: .utility) { [weak self] in
            let start = ContinuousClock.now
            do {
                for plan in plans {
                    guard let key = plan.cacheKey, cache.frames(for: key) == nil else { continue }
                    while true {
                        guard let module = self else { return }
                        if let render = await module.startPrewarmRender(plan), let frames = try await render.value {
                            if !frames.isEmpty { cache.insert(frames, for: key) }
                            break
                        }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                log.info("loaded \(voice) and rendered \(plans.count) characters in \(ContinuousClock.now - start)")
            } catch {
                log.warning("prewarming \(voice) failed: \(error)")
            }
        }
    }

    /// Starts rendering one prewarmed character unless a message is being spoken. The task gives nil
    /// when `speak` cancelled it.
    private func startPrewarmRender(_ plan: UtterancePlan) -> Task<[AudioFrame]?, any Error>? {
        guard !isSpeaking else { return nil }
        let backend = self.backend
        let render = Task.detached(priority: .utility) { () throws -> [AudioFrame]? in
            var frames: [AudioFrame] = []
            do {
                for try await chunk in backend.synthesize(plan.request) {
                    try Task.checkCancellation()
                    frames += AudioFrame(floats: chunk.samples, sampleRate: Self.declaredRate(chunk.sampleRate, plan.playbackSpeed)).split()
                }
                try Task.checkCancellation()
            } catch is CancellationError {
                return nil
            }
            return frames
        }
        prewarmRender = render
        return render
    }

    /// Whether a message is being spoken now.
    var isSpeaking: Bool { current?.token.isOpen ?? false }

    /// Returns when the message spoken last has done all its work (sent, or dropped after STOP); for tests.
    func waitUntilSpoken() async { await current?.task.value }

    /// Returns when prewarming (started by INIT) has rendered every character; for tests.
    func waitUntilPrewarmed() async { await prewarming?.value }

    // MARK: Speaking

    private func speak(_ kind: MessageKind, _ text: String) {
        if let current, current.token.isOpen {
            // The server waits for END/STOP before a new message; if it did not, the old one ends here.
            stop()
        }
        output.send(line: Replies.speaking)
        prewarmRender?.cancel()
        prewarmRender = nil
        guard let chooser else { return }
        let choice = chooser.choose(for: settings)
        if let warning = choice.warning, let name = settings.synthesisVoice, reportedUnknownVoices.insert(name).inserted {
            log.warning(warning)
        }
        let plan = UtterancePlan.make(kind: kind, text: text, settings: settings, voice: choice.voice.id,
                                      soundIconFolder: configuration.soundIconFolder)
        if let problem = plan.markupProblem {
            log.warning("the message's SSML cannot be used (\(problem)); speaking its text without the markup")
        }
        log.debug("\(kind.rawValue) with \(choice.voice.id), rate \(plan.request.rate), speed \(plan.playbackSpeed): \(plan.request.text)")
        let token = UtteranceToken()
        let task = Task.detached(priority: .userInitiated) { [backend, output, cache, log] in
            await Self.play(plan, token: token, backend: backend, output: output, cache: cache, log: log)
        }
        current = (token, task)
    }

    private func stop() {
        guard let current else { return }
        if current.token.finish(stopping: true) { output.send(.stopped) }
        current.task.cancel()
    }

    /// Speaks one message: BEGIN, audio and marks in stream order, then END (or PAUSE after the first
    /// `__spd_` mark once a pause was asked for). STOP is sent by `stop()`, which closes the token so
    /// that nothing of this message is written after it.
    private static func play(_ plan: UtterancePlan, token: UtteranceToken, backend: SpeechBackend,
                             output: any ModuleOutput, cache: FrameCache, log: ModuleLog) async {
        output.send(.begin, gate: token)
        if let icon = plan.iconFile {
            output.send(.icon(icon), gate: token)
            if token.finish() { output.send(.end) }
            return
        }
        if let key = plan.cacheKey, let frames = cache.frames(for: key) {
            log.debug("cached: \(frames.count) frames")
            for frame in frames { output.send(frame.encoded(), gate: token) }
            if token.finish() { output.send(.end) }
            return
        }
        var kept: [AudioFrame] = []
        var pacer = Pacer(lead: plan.cacheKey == nil ? playbackLead : nil)
        do {
            for try await chunk in backend.synthesize(plan.request) {
                guard token.isOpen else { break }
                log.debug("chunk: \(chunk.samples.count) samples at \(chunk.sampleRate) Hz, events \(chunk.events)")
                let rate = declaredRate(chunk.sampleRate, plan.playbackSpeed)
                var start = 0
                for piece in pieces(of: chunk) {
                    switch piece {
                    case .audio(let end):
                        for frame in AudioFrame(floats: chunk.samples[start..<end], sampleRate: rate).split() {
                            try await pacer.wait()
                            output.send(frame.encoded(), gate: token)
                            pacer.sent(samples: frame.samples.count, rate: rate)
                            if plan.cacheKey != nil { kept.append(frame) }
                        }
                        start = end
                    case .mark(let name):
                        output.send(.indexMark(name), gate: token)
                        if name.hasPrefix("__spd_"), token.isPauseRequested {
                            if token.finish() { output.send(.paused) }
                            return
                        }
                    }
                }
            }
        } catch is CancellationError {
        } catch {
            if token.isOpen { log.warning("synthesis failed: \(error)") }
        }
        guard token.finish() else { return }
        output.send(.end)
        if let key = plan.cacheKey, !kept.isEmpty { cache.insert(kept, for: key) }
    }

    /// How far ahead of playback audio is sent. speech-dispatcher buffers about 0.45 s itself; staying
    /// close to playback keeps its reader free, so that a STOP goes through the module (which drops
    /// what is queued) instead of waiting on the server's own queue, and renders no more than needed.
    static let playbackLead = Duration.milliseconds(600)

    /// A chunk as audio runs (up to a sample offset) and marks, in audio order.
    enum Piece: Equatable {
        case audio(upTo: Int)
        case mark(String)
    }

    static func pieces(of chunk: AudioChunk) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        for (name, offset) in marks(in: chunk) {
            if offset > start { pieces.append(.audio(upTo: offset)) }
            start = max(start, offset)
            pieces.append(.mark(name))
        }
        if chunk.samples.count > start { pieces.append(.audio(upTo: chunk.samples.count)) }
        return pieces
    }

    /// The marks of a chunk in audio order, offsets clamped to the chunk.
    static func marks(in chunk: AudioChunk) -> [(name: String, offset: Int)] {
        chunk.events.enumerated().compactMap { index, event -> (String, Int, Int)? in
            guard case .mark(let name, let offset) = event else { return nil }
            return (name, min(max(offset, 0), chunk.samples.count), index)
        }
        .sorted { ($0.1, $0.2) < ($1.1, $1.2) }
        .map { (name: $0.0, offset: $0.1) }
    }

    /// The sample rate the server is told: the real one times the playback speed (pitch).
    static func declaredRate(_ sampleRate: Int, _ speed: Double) -> Int {
        max(1000, Int((Double(sampleRate) * speed).rounded()))
    }
}
