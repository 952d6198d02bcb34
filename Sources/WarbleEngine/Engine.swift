import Foundation
import ONNXRuntime
import WarbleModels
import WarbleText

/// The speech engine: the installed voices behind one entry point.
///
/// Loads each model lazily and once (concurrent first callers share the same load), caches rendered
/// utterances (bounded), unloads models that have been idle longer than `idleUnloadAfter`, and
/// publishes what it is doing as a status stream.
public actor Engine {
    public struct Configuration: Sendable {
        /// The voice used when a request names none (falls back to the first installed voice).
        public var defaultVoice: String
        /// Models unused for this long are unloaded (nil: never).
        public var idleUnloadAfter: Duration?
        /// Upper bound of the rendered-utterance cache.
        public var cacheBytes: Int
        public var sessionOptions: SessionOptions
        /// Whether each request renders its next utterance while the current one is handed out (see
        /// `StreamingSynthesizer.lookahead`): sooner done on a machine with cores to spare, for one
        /// request at a time. Off by default (a server runs requests side by side instead).
        public var lookahead: Bool
        /// Whether freed heap memory goes back to the system each time the last running synthesis ends
        /// (see `ProcessHeap`), so that resident memory returns near its level before the work.
        public var releaseMemoryWhenIdle: Bool

        public init(defaultVoice: String = "en_US-joe-medium", idleUnloadAfter: Duration? = .seconds(600),
                    cacheBytes: Int = 64 << 20, sessionOptions: SessionOptions = .init(),
                    releaseMemoryWhenIdle: Bool = true, lookahead: Bool = false) {
            self.defaultVoice = defaultVoice
            self.idleUnloadAfter = idleUnloadAfter
            self.cacheBytes = cacheBytes
            self.sessionOptions = sessionOptions
            self.releaseMemoryWhenIdle = releaseMemoryWhenIdle
            self.lookahead = lookahead
        }
    }

    public let configuration: Configuration
    public let store: ModelStore
    public nonisolated let cache: ChunkCache
    private let registry: ModelRegistry
    private let phonemizer: any Phonemizer

    private var installed: [String: InstalledModel] = [:]
    private var voiceIndex: [String: (voice: VoiceDescription, model: String)] = [:]
    private var orderedVoices: [VoiceDescription] = []
    private var loads: [String: Task<any UtteranceRenderer, any Error>] = [:]
    private var lastUsed: [String: ContinuousClock.Instant] = [:]
    private var active: [String: Int] = [:]
    private var status: EngineStatus = .idle
    private var observers: [UUID: AsyncStream<EngineStatus>.Continuation] = [:]
    private var sweeper: Task<Void, Never>?

    /// Reads the installed models' manifests; models load on first use.
    public init(store: ModelStore = ModelStore(), phonemizer: any Phonemizer, registry: ModelRegistry = .builtIn,
                configuration: Configuration = .init()) {
        self.store = store
        self.phonemizer = phonemizer
        self.registry = registry
        self.configuration = configuration
        self.cache = ChunkCache(capacityBytes: configuration.cacheBytes)
        let (models, _) = store.scan()
        var installed: [String: InstalledModel] = [:]
        var index: [String: (VoiceDescription, String)] = [:]
        var ordered: [VoiceDescription] = []
        for model in models where registry.speaks(model.manifest.family) {
            installed[model.manifest.id] = model
            for voice in model.manifest.voices where index[voice.id] == nil {
                let description = VoiceDescription(
                    id: voice.id, displayName: voice.displayName ?? voice.id, language: voice.language,
                    model: model.manifest.id, sampleRate: model.manifest.sampleRate, gender: voice.gender)
                index[voice.id] = (description, model.manifest.id)
                ordered.append(description)
            }
        }
        self.installed = installed
        self.voiceIndex = index.mapValues { (voice: $0.0, model: $0.1) }
        self.orderedVoices = ordered
    }

    deinit {
        sweeper?.cancel()
        for continuation in observers.values { continuation.finish() }
    }

    // MARK: Voices

    /// Every voice of every installed speaking model.
    public var voices: [VoiceDescription] { orderedVoices }

    /// The voice a request without one gets.
    public var defaultVoice: VoiceDescription? {
        voiceIndex[configuration.defaultVoice]?.voice ?? orderedVoices.first
    }

    /// The voice `id` (or the default for nil); a clear error listing the voices when unknown.
    public func voice(_ id: String?) throws -> VoiceDescription {
        if let id {
            if let found = voiceIndex[id]?.voice { return found }
            if let byName = orderedVoices.first(where: { $0.displayName == id }) { return byName }
            throw ModelError(.unknownVoice, "unknown voice '\(id)'; installed voices: "
                + (orderedVoices.isEmpty ? "none (run scripts/setup.sh)" : orderedVoices.map(\.id).joined(separator: ", ")))
        }
        guard let voice = defaultVoice else {
            throw ModelError(.badModel, "no voices are installed in \(store.modelsDirectory.path); run scripts/setup.sh")
        }
        return voice
    }

    // MARK: Synthesis

    /// Speaks `request` with its voice (or the default), streaming audio as it is produced.
    /// Cancelling the consuming task stops the work.
    public nonisolated func synthesize(_ request: SynthesisRequest) -> AsyncThrowingStream<AudioChunk, any Error> {
        let relay = SynthesisRelay(engine: self, request: request)
        return AsyncThrowingStream(unfolding: { try await relay.next() })
    }

    /// The loaded synthesizer for a voice, and the request rewritten to name that voice.
    func start(_ request: SynthesisRequest) async throws -> (AsyncThrowingStream<AudioChunk, any Error>, String) {
        let voice = try voice(request.voice)
        let renderer = try await renderer(for: voice.model)
        var named = request
        named.voice = voice.id
        let synthesizer = StreamingSynthesizer(renderer: CachingRenderer(base: renderer, cache: cache),
                                               lookahead: configuration.lookahead)
        active[voice.model, default: 0] += 1
        publish(.synthesizing(model: voice.model))
        return (synthesizer.synthesize(named), voice.model)
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
            Task.detached(priority: .background) { ProcessHeap.releaseFreeMemory() }
        }
    }

    // MARK: Loading

    /// The loaded model `id`, loading it once however many callers ask at the same time.
    public func renderer(for id: String) async throws -> any UtteranceRenderer {
        lastUsed[id] = .now
        if let load = loads[id] { return try await load.value }
        guard let model = installed[id] else {
            throw ModelError(.badModel, "model '\(id)' is not installed; run scripts/setup.sh")
        }
        let phonemizer = self.phonemizer
        let registry = self.registry
        let options = configuration.sessionOptions
        publish(.loading(model: id))
        let task = Task.detached(priority: .userInitiated) { () throws -> any UtteranceRenderer in
            try registry.load(model, phonemizer: phonemizer, options: options)
        }
        loads[id] = task
        do {
            let renderer = try await task.value
            publish(.ready(model: id))
            startSweeperIfNeeded()
            return renderer
        } catch {
            loads[id] = nil
            publish(.failed(model: id, message: "\(error)"))
            throw error
        }
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
            Task.detached(priority: .background) { ProcessHeap.releaseFreeMemory() }
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

/// Forwards one request's chunks from the model's stream and tells the engine when it ends.
private actor SynthesisRelay {
    let engine: Engine
    let request: SynthesisRequest
    private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator?
    private var model: String?
    private var done = false

    init(engine: Engine, request: SynthesisRequest) {
        self.engine = engine
        self.request = request
    }

    /// A consumer that stops early (breaks out of its loop, or is cancelled) drops the stream without
    /// reaching its end: the engine still hears that the request is over.
    deinit {
        if !done, let model {
            let engine = self.engine
            Task { await engine.finish(model: model) }
        }
    }

    func next() async throws -> AudioChunk? {
        if done { return nil }
        do {
            if iterator == nil {
                let (stream, model) = try await engine.start(request)
                iterator = stream.makeAsyncIterator()
                self.model = model
            }
            var current = iterator
            let chunk = try await current?.next(isolation: self)
            iterator = current
            if chunk == nil { await end() }
            return chunk
        } catch {
            await end()
            throw error
        }
    }

    private func end() async {
        guard !done else { return }
        done = true
        iterator = nil
        if let model { await engine.finish(model: model) }
    }
}
