import Foundation
import ONNXRuntime
import WarbleSpeech

/// Chatterbox Turbo's stages driven one at a time, for `warble bench stages chatterbox` (package access, not
/// public API): the speech encoder on a clip, the language model's greedy loop (`ChatterboxTokenGeneration`,
/// the model card's loop, as `render` runs it) on given text ids, and the conditional decoder, so that a
/// benchmark can time the loop token by token and the decoder apart.
package struct ChatterboxStages: Sendable {
    let llm: ChatterboxLanguageModel
    let codec: ChatterboxCodec
    package let variant: String

    /// The model in `directory` (ChatterboxFiles' layout) with its sessions on `threads` intra-op
    /// threads (one inter-op thread). The tokenizer is not loaded: the stages take token ids.
    package static func load(directory: URL, variant: String?, threads: Int) throws -> ChatterboxStages {
        let files = try ChatterboxFiles.locate(in: directory, variant: variant)
        let options = SessionOptions(intraOpThreads: threads, interOpThreads: 1)
        return ChatterboxStages(llm: try ChatterboxLanguageModel(files: files, options: options),
                                codec: try ChatterboxCodec(files: files, options: options), variant: files.variant)
    }

    /// The language model's layout, as read from its session.
    package var layers: Int { llm.layers }
    package var heads: Int { llm.heads }
    package var width: Int { llm.width }

    /// A voice's conditioning (the speech encoder's four outputs).
    package struct Voice: Sendable {
        let voice: ChatterboxVoice
        /// Rows of `audio_features` (the language model's conditioning prefix).
        package var featureRows: Int { voice.featureRows }
        /// `audio_tokens`: the decoder's prompt tokens.
        package var promptTokens: Int { voice.promptTokens.count }
    }

    /// The speech encoder's outputs for 24 kHz samples, fed as given (no loudness normalisation).
    package func encode(_ samples: [Float]) throws -> Voice {
        Voice(voice: try CancellationToken().withRunOptions { try codec.encode(samples, options: $0) })
    }

    /// A fresh greedy loop over `textIDs` after the voice's conditioning, of at most `steps` steps.
    package func tokens(voice: Voice, textIDs: [Int], steps: Int) -> Tokens {
        Tokens(generation: ChatterboxTokenGeneration(model: llm, features: voice.voice.features, featureRows: voice.voice.featureRows,
                                                     text: textIDs, sampler: ChatterboxSampler(mode: .greedy), seed: 0, maxSteps: steps))
    }

    /// One utterance's token loop.
    package struct Tokens {
        var generation: ChatterboxTokenGeneration
        let cancel = CancellationToken()

        /// The next speech token (one step of the language model), nil when the loop has ended.
        package mutating func next() throws -> Int? { try generation.next(cancel: cancel) }
        /// Tokens written so far (steps run).
        package var written: Int { generation.written.count }
        /// Whether STOP ended the loop.
        package var stopped: Bool { generation.stopped }
    }

    /// The silence token the decoder gets three of after the speech.
    package static let silence = ChatterboxCodec.silence

    /// The decoder's 24 kHz audio for `tokens` after the voice's prompt tokens.
    package func decode(_ tokens: [Int], voice: Voice) throws -> [Float] {
        try CancellationToken().withRunOptions { try codec.decode(tokens, voice: voice.voice, options: $0) }
    }
}
