import WarbleEngine
import WarblePhonemes

/// The engine as the command uses it: installed models, espeak-ng for phonemes.
enum EngineFactory {
    /// The rendered-utterance cache of a one-shot command: it rarely says the same thing twice, so a
    /// small cache (repeated short phrases) instead of the engine's 64 MiB, which a long text would fill
    /// with audio nobody asks for again. `warble serve` sets its own.
    static let commandCacheBytes = 4 << 20

    static func make(threads: Int = 0, cacheBytes: Int = commandCacheBytes) -> Engine {
        Engine(phonemizer: EspeakPhonemizer(),
               configuration: Engine.Configuration(cacheBytes: cacheBytes, sessionOptions: .init(intraOpThreads: threads)))
    }
}
