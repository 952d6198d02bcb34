import Foundation
import WarbleEngine
import WarblePhonemes
import WarbleText

/// The engine as the command uses it: installed models, espeak-ng for phonemes.
enum EngineFactory {
    /// The rendered-utterance cache of a one-shot command: it rarely says the same thing twice, so a
    /// small cache (repeated short phrases) instead of the engine's 64 MiB, which a long text would fill
    /// with audio nobody asks for again. `warble serve` sets its own.
    static let commandCacheBytes = 4 << 20

    /// `threads` is the request's budget of cores (0: all of them). With a budget of two or more on a
    /// machine of two cores or more, each request renders its next utterance while the current one is
    /// out (`Engine.Configuration.lookahead`), each on half the budget: a text is done sooner than one
    /// utterance at a time on all of them (Piper, 13 sentences, 2 cores: 1.87 s against 2.72 s for two
    /// intra-op threads, whole process). A budget of one: one ONNX Runtime thread, one utterance at a time.
    ///
    /// With `recognition`, the engine is for speech recognition: `threads` is handed to ONNX Runtime as
    /// it is (0: ONNX Runtime's choice), and no look-ahead.
    static func make(threads: Int = 0, cacheBytes: Int = commandCacheBytes, recognition: Bool = false,
                     lexicon: PronunciationLexicon? = nil) -> Engine {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let budget = threads == 0 ? cores : threads
        let lookahead = !recognition && budget >= 2 && cores >= 2
        let intraOp = lookahead ? max(1, budget / 2) : threads
        return Engine(phonemizer: EspeakPhonemizer(),
                      configuration: Engine.Configuration(cacheBytes: cacheBytes, threads: intraOp, lookahead: lookahead,
                                                          lexicon: lexicon))
    }
}
