import Foundation
import ONNXRuntime
import WarbleAudio
import WarbleModels
import WarbleSpeech
import WarbleText

/// The speech engine: every installed model and every ability behind one entry point: speech
/// synthesis (stock and library voices), recognition, voice activity detection, voice encoding and
/// translation. The CLI, the server and the speech-dispatcher module talk only to it.
///
/// Loads each model lazily and once through its family (concurrent first callers share the same
/// load), caches rendered utterances (bounded), unloads models that have been idle longer than
/// `idleUnloadAfter`, and publishes what it is doing as a status stream.
public actor Engine {
    public struct Configuration: Sendable {
        /// The voice used when a request names none (falls back to the first installed voice).
        public var defaultVoice: String
        /// Models unused for this long are unloaded (nil: never).
        public var idleUnloadAfter: Duration?
        /// Upper bound of the rendered-utterance cache.
        public var cacheBytes: Int
        /// ONNX Runtime intra-op threads per session (0: ONNX Runtime's choice).
        public var threads: Int
        /// Whether ONNX Runtime keeps its memory arena (faster repeated runs, memory held at its peak).
        public var memoryArena: Bool
        /// Whether each request renders its next utterance while the current one is handed out (see
        /// `StreamingSynthesizer.lookahead`): sooner done on a machine with cores to spare, for one
        /// request at a time. Off by default (a server runs requests side by side instead).
        public var lookahead: Bool
        /// Whether freed heap memory goes back to the system each time the last running synthesis ends
        /// (see `ProcessHeap`), so that resident memory returns near its level before the work.
        public var releaseMemoryWhenIdle: Bool
        /// A pronunciation lexicon applied to every request (`--lexicon`; the module's `WarbleLexicon`).
        public var lexicon: PronunciationLexicon?

        public init(defaultVoice: String = "en_US-joe-medium", idleUnloadAfter: Duration? = .seconds(600),
                    cacheBytes: Int = 64 << 20, threads: Int = 0, memoryArena: Bool = true,
                    releaseMemoryWhenIdle: Bool = true, lookahead: Bool = false, lexicon: PronunciationLexicon? = nil) {
            self.defaultVoice = defaultVoice
            self.idleUnloadAfter = idleUnloadAfter
            self.cacheBytes = cacheBytes
            self.threads = threads
            self.memoryArena = memoryArena
            self.releaseMemoryWhenIdle = releaseMemoryWhenIdle
            self.lookahead = lookahead
            self.lexicon = lexicon
        }

        /// The session options every family starts from.
        var sessionOptions: SessionOptions { SessionOptions(intraOpThreads: threads, memoryArena: memoryArena) }
    }

    public let configuration: Configuration
    public nonisolated let store: ModelStore
    public nonisolated let cache: ChunkCache
    /// The user's voices (`$WARBLE_HOME/voices`), listed with the stock voices.
    public nonisolated let library: VoiceLibrary
    let families: ModelFamilies
    private let phonemizer: (any Phonemizer)?

    private(set) var installed: [String: InstalledModel] = [:]
    private var voiceIndex: [String: (voice: VoiceDescription, model: String)] = [:]
    private var stockVoices: [VoiceDescription] = []
    private(set) var libraryVoices: VoiceLibrary.Snapshot = .empty
    private var loads: [String: Task<LoadedModel, any Error>] = [:]
    private var lastUsed: [String: ContinuousClock.Instant] = [:]
    private var active: [String: Int] = [:]
    private var status: EngineStatus = .idle
    private var observers: [UUID: AsyncStream<EngineStatus>.Continuation] = [:]
    private var sweeper: Task<Void, Never>?
    /// When the models directory last changed, as of the last scan.
    private var modelsStamp: Date?

    /// Reads the installed models' manifests and the voice library; models load on first use.
    /// `phonemizer`: text to phonemes for the families that need one (the executables give espeak-ng's).
    public init(store: ModelStore = ModelStore(), phonemizer: (any Phonemizer)?, families: ModelFamilies = .builtIn,
                configuration: Configuration = .init()) {
        self.store = store
        self.phonemizer = phonemizer
        self.families = families
        self.configuration = configuration
        self.cache = ChunkCache(capacityBytes: configuration.cacheBytes)
        self.library = VoiceLibrary(directory: store.voicesDirectory)
        modelsStamp = Self.stamp(of: store.modelsDirectory)
        (installed, voiceIndex, stockVoices) = Self.index(store.scan().models, families: families)
    }

    /// The speaking models' voices, and the models of the families this engine runs.
    private static func index(_ models: [InstalledModel], families: ModelFamilies)
        -> ([String: InstalledModel], [String: (voice: VoiceDescription, model: String)], [VoiceDescription])
    {
        var installed: [String: InstalledModel] = [:]
        var index: [String: (voice: VoiceDescription, model: String)] = [:]
        var ordered: [VoiceDescription] = []
        for model in models where !families.abilities(of: model.manifest.family).isEmpty {
            installed[model.manifest.id] = model
            guard families.abilities(of: model.manifest.family).contains(.synthesis) else { continue }
            for voice in model.manifest.voices where index[voice.id] == nil {
                let description = VoiceDescription(
                    id: voice.id, displayName: voice.displayName ?? voice.id, language: voice.language,
                    model: model.manifest.id, sampleRate: model.manifest.sampleRate, gender: voice.gender)
                index[voice.id] = (description, model.manifest.id)
                ordered.append(description)
            }
        }
        return (installed, index, ordered)
    }

    private static func stamp(of directory: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: directory.path))?[.modificationDate] as? Date
    }

    /// Reads the models again when their directory changed (a model pulled or removed while a server
    /// runs): new voices appear on the next request. A model installed again is loaded afresh on
    /// its next use; requests running on the old one finish with it.
    private func refreshModels() {
        let stamp = Self.stamp(of: store.modelsDirectory)
        guard stamp != modelsStamp else { return }
        modelsStamp = stamp
        let before = installed
        (installed, voiceIndex, stockVoices) = Self.index(store.scan().models, families: families)
        for (id, model) in before where installed[id]?.manifest != model.manifest {
            loads[id] = nil
        }
    }

    deinit {
        sweeper?.cancel()
        for continuation in observers.values { continuation.finish() }
    }

    // MARK: Voices

    /// Every voice: the stock voices of every installed speaking model, then the library's voices of
    /// installed models (the library is read again when it changed, so a voice added while a server
    /// runs is there on the next request).
    public var voices: [VoiceDescription] {
        refreshModels()
        refreshLibrary()
        return stockVoices + libraryVoices.profiles.compactMap(libraryDescription)
    }

    /// The stock voices of every installed speaking model (the models read again when they changed).
    var currentStockVoices: [VoiceDescription] {
        refreshModels()
        return stockVoices
    }

    /// The voice a request without one gets.
    public var defaultVoice: VoiceDescription? {
        voiceIndex[configuration.defaultVoice]?.voice ?? stockVoices.first
    }

    /// The voice `id` (or the default for nil); a clear error listing the voices when unknown.
    public func voice(_ id: String?) throws -> VoiceDescription {
        refreshModels()
        if let id {
            if let found = voiceIndex[id]?.voice { return found }
            if let mix = try VoiceMix.parse(id) { return try mixedVoice(mix) }
            if let adopted = try adoptedVoice(id) { return adopted }
            refreshLibrary()
            if let profile = libraryVoices.profile(id), let found = libraryDescription(profile) { return found }
            let all = voices
            if let byName = all.first(where: { $0.displayName == id }) { return byName }
            throw ModelError(.unknownVoice, "unknown voice '\(id)'; installed voices: "
                + (all.isEmpty ? "none (install the default one with: \(ModelDefaults.pullCommand(\.voice)))" : all.map(\.id).joined(separator: ", ")))
        }
        guard let voice = defaultVoice else {
            throw ModelError(.badModel, "no voices are installed in \(store.modelsDirectory.path); install the default one with: \(ModelDefaults.pullCommand(\.voice))")
        }
        return voice
    }

    /// A model file given by path (`./voices/x.onnx`), adopted by its family and listed from then on;
    /// nil when `id` names no file.
    private func adoptedVoice(_ id: String) throws -> VoiceDescription? {
        guard id.contains("/") || id.hasSuffix(".onnx") else { return nil }
        let url = URL(fileURLWithPath: id).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ModelError(.unknownVoice, "there is no model file \(url.path)")
        }
        if let known = voiceIndex[url.path]?.voice { return known }
        guard let files = try families.adopt(file: url), let voice = files.manifest.voices.first else {
            throw ModelError(.unknownVoice, "\(url.path) is no model file Warble knows (a Piper voice is NAME.onnx with NAME.onnx.json)")
        }
        let description = VoiceDescription(id: voice.id, displayName: voice.displayName ?? voice.id, language: voice.language,
                                           model: files.manifest.id, sampleRate: files.manifest.sampleRate, gender: voice.gender)
        installed[files.manifest.id] = InstalledModel(manifest: files.manifest, directory: files.directory)
        voiceIndex[voice.id] = (description, files.manifest.id)
        stockVoices.append(description)
        return description
    }

    /// A library voice as voice lists show it; nil when its model is not installed.
    private func libraryDescription(_ profile: VoiceProfile) -> VoiceDescription? {
        guard let model = installed[profile.model], families.abilities(of: model.manifest.family).contains(.synthesis)
        else { return nil }
        return profile.voiceDescription(sampleRate: model.manifest.sampleRate)
    }

    private func refreshLibrary() {
        if let newer = library.snapshot(ifNewerThan: libraryVoices) { libraryVoices = newer }
    }

    // MARK: Synthesis

    /// Speaks `request` with its voice (or the default), streaming audio as it is produced.
    /// Cancelling the consuming task stops the work.
    public nonisolated func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> {
        relay(request).stream
    }

    /// The request's relay: it starts the run on its first pull and tells the engine when the request is over.
    public nonisolated func relay(_ request: SynthesisRequest) -> SynthesisRelay {
        SynthesisRelay { [self] in
            let (stream, model) = try await start(request, voice: nil)
            return (stream, { await self.finish(model: model) })
        }
    }

    /// The relay of a request whose voice the caller resolved already (with `voice(_:)`): it is not looked up again.
    public nonisolated func relay(_ request: SynthesisRequest, voice: VoiceDescription,
                                  observer: SynthesisRelay.Observer?) -> SynthesisRelay {
        SynthesisRelay(observer: observer) { [self] in
            let (stream, model) = try await start(request, voice: voice)
            return (stream, { await self.finish(model: model) })
        }
    }

    /// The voice-resolved counterpart of `synthesize(_:)`.
    public nonisolated func synthesize(_ request: SynthesisRequest, voice: VoiceDescription) -> AsyncThrowingStream<AudioChunk, any Error> {
        relay(request, voice: voice, observer: nil).stream
    }

    /// The loaded synthesizer for a voice (the request's, unless the caller resolved it already), and the request
    /// rewritten to name that voice.
    func start(_ request: SynthesisRequest, voice resolved: VoiceDescription?) async throws
        -> (AsyncThrowingStream<AudioChunk, any Error>, String) {
        let voice = try resolved ?? voice(request.voice)
        let renderer = try await renderer(for: voice.model)
        var named = request
        named.voice = voice.id
        let profile = voiceIndex[voice.id] == nil
            ? try libraryVoices.profile(voice.id) ?? mixedProfile(voice, renderer: renderer) : nil
        let synthesizer = StreamingSynthesizer(renderer: CachingRenderer(base: renderer, cache: cache),
                                               lookahead: configuration.lookahead, profile: profile,
                                               lexicon: configuration.lexicon)
        begin(model: voice.model, status: .synthesizing(model: voice.model))
        return (synthesizer.synthesize(named), voice.model)
    }

    /// Counts a request on `model` (a model in use is never unloaded).
    func begin(model: String, status: EngineStatus) {
        active[model, default: 0] += 1
        publish(status)
    }

    func finish(model: String) {
        active[model, default: 1] -= 1
        lastUsed[model] = .now
        if active[model, default: 0] <= 0 {
            active[model] = nil
            publish(active.isEmpty ? .ready(model: model) : .synthesizing(model: active.keys.sorted()[0]))
        }
        if active.isEmpty, configuration.releaseMemoryWhenIdle {
            // Nothing is being synthesised: give the heap's free memory back (off the actor: it walks the heap).
            Self.releaseFreeMemory()
        }
    }

    /// Gives the heap's free memory back (it walks the heap: blocking work, off the actor and the pool).
    private static func releaseFreeMemory() {
        Task { try? await BlockingWork.run { ProcessHeap.releaseFreeMemory() } }
    }

    // MARK: Loading

    /// The loaded model `id`, loading it once (through its family) however many callers ask at the same time.
    public func model(_ id: String) async throws -> LoadedModel {
        refreshModels()
        lastUsed[id] = .now
        if let load = loads[id] { return try await load.value }
        guard let model = installed[id] else {
            let known = installed.keys.sorted()
            throw ModelError(.badModel, "model '\(id)' is not installed"
                + (known.isEmpty ? "" : " (installed: \(known.joined(separator: ", ")))")
                + "; install it with `warble models pull` (`warble models available` lists the models it can pull)")
        }
        let families = self.families
        let context = FamilyContext(phonemizer: phonemizer, sessionOptions: configuration.sessionOptions,
                                    installed: store.scan().models.map { ModelFiles(manifest: $0.manifest, directory: $0.directory) },
                                    sparesCores: configuration.lookahead)
        let files = ModelFiles(manifest: model.manifest, directory: model.directory)
        publish(.loading(model: id))
        let task = Task { () throws -> LoadedModel in
            try await BlockingWork.run { try families.load(files, context: context) }
        }
        loads[id] = task
        do {
            let loaded = try await task.value
            publish(.ready(model: id))
            startSweeperIfNeeded()
            return loaded
        } catch {
            loads[id] = nil  // a later request tries again (the files may be fixed meanwhile)
            publish(.failed(model: id, message: "\(error)"))
            throw error
        }
    }

    /// `warble models check`: opens every graph of installed model `id` as its family does and compares each
    /// input and output with what the family expects (nothing is run; the model is not kept loaded).
    public func checkModel(_ id: String) async throws -> ModelCheck {
        refreshModels()
        guard let model = installed[id] else {
            let known = installed.keys.sorted()
            throw ModelError(.badModel, "model '\(id)' is not installed"
                + (known.isEmpty ? "" : " (installed: \(known.joined(separator: ", ")))"))
        }
        let families = self.families
        let context = FamilyContext(phonemizer: phonemizer, sessionOptions: configuration.sessionOptions,
                                    installed: store.scan().models.map { ModelFiles(manifest: $0.manifest, directory: $0.directory) })
        let files = ModelFiles(manifest: model.manifest, directory: model.directory)
        return try await BlockingWork.run { families.check(files, context: context) }
    }

    /// The installed models that offer `ability`, sorted by id.
    public func models(offering ability: Ability) -> [InstalledModel] {
        refreshModels()
        return installed.values.filter { families.abilities(of: $0.manifest.family).contains(ability) }
            .sorted { $0.manifest.id < $1.manifest.id }
    }

    /// The text-to-speech renderer of model `id`.
    public func renderer(for id: String) async throws -> any UtteranceRenderer {
        guard let renderer = try await model(id).renderer else {
            throw ModelError(.badModel, "model '\(id)' does not speak (it is a \(installed[id]?.manifest.family ?? "?") model)")
        }
        return renderer
    }

    /// Ids of the models loaded now.
    public var loadedModels: [String] { loads.keys.sorted() }

    /// Unloads models idle for longer than `idleUnloadAfter` (also done periodically). Returns the ids unloaded.
    @discardableResult
    public func unloadIdleModels(now: ContinuousClock.Instant = .now) -> [String] {
        guard let limit = configuration.idleUnloadAfter else { return [] }
        var unloaded: [String] = []
        for id in loads.keys.sorted() where active[id, default: 0] == 0 {
            if let used = lastUsed[id], now - used < limit { continue }
            loads[id] = nil
            unloaded.append(id)
        }
        if !unloaded.isEmpty, loads.isEmpty { publish(.idle) }
        if !unloaded.isEmpty, configuration.releaseMemoryWhenIdle {
            Self.releaseFreeMemory()
        }
        return unloaded
    }

    private func startSweeperIfNeeded() {
        guard sweeper == nil, let limit = configuration.idleUnloadAfter else { return }
        let interval = max(limit / 4, .milliseconds(50))
        sweeper = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await self?.unloadIdleModels()
            }
        }
    }

    // MARK: Status

    /// The engine's status now and as it changes; only the newest value is buffered.
    public func statusUpdates() -> AsyncStream<EngineStatus> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: EngineStatus.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(status)
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    public var currentStatus: EngineStatus { status }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    private func publish(_ new: EngineStatus) {
        status = new
        for continuation in observers.values { continuation.yield(new) }
    }
}
