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

    /// `threads` 0 is automatic: with two cores or more, each request renders its next utterance while
    /// the current one is out (`Engine.Configuration.lookahead`), each on half the cores, which finishes
    /// a text sooner than one utterance at a time on all of them. Any other value: that many ONNX Runtime
    /// threads, one utterance at a time.
    ///
    /// With `recognition`, the engine is for speech recognition: `threads` is handed to ONNX Runtime as
    /// it is (0: ONNX Runtime's choice), and no look-ahead.
    static func make(threads: Int = 0, cacheBytes: Int = commandCacheBytes, recognition: Bool = false,
                     lexicon: PronunciationLexicon? = nil) -> Engine {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let lookahead = !recognition && threads == 0 && cores >= 2
        let intraOp = lookahead ? max(1, cores / 2) : threads
        return Engine(phonemizer: EspeakPhonemizer(),
                      configuration: Engine.Configuration(cacheBytes: cacheBytes, threads: intraOp, lookahead: lookahead,
                                                          lexicon: lexicon))
    }
}
