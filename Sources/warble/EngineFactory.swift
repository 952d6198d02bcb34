import WarbleEngine
import WarblePhonemes

/// The engine as the command uses it: installed models, espeak-ng for phonemes.
enum EngineFactory {
    static func make(threads: Int = 0) -> Engine {
        Engine(phonemizer: EspeakPhonemizer(),
               configuration: Engine.Configuration(sessionOptions: .init(intraOpThreads: threads)))
    }
}
